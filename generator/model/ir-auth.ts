/**
 * @module The IR of an API's credentials: the schemes it accepts (API key, bearer, OAuth 2.0 with its flows and
 * declared scopes), and the questions every stage asks of them. Re-exported by `ir.ts`.
 */
/** The four OAuth 2.0 flows OpenAPI describes. */
export type OAuthFlowKind = 'authorizationCode' | 'clientCredentials' | 'implicit' | 'password';

/** A URL of an OAuth 2.0 flow. */
export type OAuthUrlName = 'authorizationUrl' | 'tokenUrl' | 'refreshUrl';

/**
 * The URLs each flow requires (`refreshUrl` is optional in every flow), in the order flows are emitted.
 * Keyed by kind, so a flow without its entry does not compile.
 */
export const OAUTH_FLOWS: { readonly [K in OAuthFlowKind]: readonly Exclude<OAuthUrlName, 'refreshUrl'>[] } = {
  authorizationCode: ['authorizationUrl', 'tokenUrl'],
  clientCredentials: ['tokenUrl'],
  implicit: ['authorizationUrl'],
  password: ['tokenUrl'],
};

/** One declared OAuth 2.0 flow and its URLs (those it requires, and `refreshUrl` when given). */
export interface OAuthFlowIR {
  readonly kind: OAuthFlowKind;
  readonly authorizationUrl?: string;
  readonly tokenUrl?: string;
  readonly refreshUrl?: string;
}

/** A declared OAuth 2.0 scope and what it grants. */
export interface OAuthScopeIR {
  readonly name: string;
  readonly description: string;
}

/** OAuth 2.0: the identity provider's flows (in {@link OAUTH_FLOWS} order) and the declared scopes (as written). */
export interface OAuth2IR {
  readonly flows: readonly OAuthFlowIR[];
  readonly scopes: readonly OAuthScopeIR[];
  readonly description?: string;
}

/** The credential schemes an API accepts. `bearer` and `oauth2` both mean `Authorization: Bearer` tokens; an API declares one of them. */
export interface AuthIR {
  readonly bearer?: { readonly description?: string };
  readonly apiKey?: { readonly header: string; readonly description?: string };
  readonly oauth2?: OAuth2IR;
}

/** Whether the API takes `Authorization: Bearer` tokens (declared as `bearer` or as `oauth2`). */
export function takesBearer(auth: AuthIR): boolean {
  return auth.bearer !== undefined || auth.oauth2 !== undefined;
}

/** Whether the API accepts any credential at all; without one every operation is public. */
export function takesCredentials(auth: AuthIR): boolean {
  return takesBearer(auth) || auth.apiKey !== undefined;
}
