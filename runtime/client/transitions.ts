/**
 * Lifecycles in the client (copied only for APIs that have one): a transition's method, `POST
 * <collection>/{id}:<verb>`, and the 409 it answers when the resource is not in a state it starts from.
 * @module
 */
import { ConflictError, ERRORS } from "./failures.js";
import type { Move } from "./namespace.js";

/** 409 `invalid_transition`: the resource is in `state`, from which the transitions `allowed` are open. */
export class InvalidTransitionError extends ConflictError {
  override name = "InvalidTransitionError";
  /** The state the resource is in, as the version called shows it. */
  get state(): string | null {
    const state = this.problem?.["state"];
    return typeof state === "string" ? state : null;
  }
  /** The transitions of the version called that start from that state. */
  get allowed(): string[] {
    const allowed = this.problem?.["allowed"];
    return Array.isArray(allowed)
      ? allowed.filter((a): a is string => typeof a === "string")
      : [];
  }
}

// Registered where errors are chosen: a transition's 409 `invalid_transition` is this error.
ERRORS["409 invalid_transition"] = InvalidTransitionError;

/**
 * The method of the transition `verb`: `POST <collection>/{id}:<verb>`. Its input may be left out (`{}` is
 * sent); as a POST, it carries an `Idempotency-Key`, so a retry never moves the resource twice.
 */
export const transition: Move = (send, verb) => (id, input, opts) =>
  send("POST", id, input ?? {}, opts, `:${verb}`);
