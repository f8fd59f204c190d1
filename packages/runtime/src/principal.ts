/**
 * @module Who a request was made by, as the credential checks found it: what `authenticate` and the JWT verifier
 * answer and handlers read (`ctx.principal`). Its own module, so the verifier and the options that name it need not
 * import each other.
 */

/** Who is calling: `scopes` are checked against each operation's declared scopes. */
export interface Principal {
  readonly id: string;
  readonly scopes: readonly string[];
  /** The verified claims of the caller's JWT access token (with `options.jwt`). */
  readonly claims?: Readonly<Record<string, unknown>>;
}
