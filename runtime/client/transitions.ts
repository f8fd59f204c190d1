/**
 * Lifecycles in the client (copied only for APIs that have one, imported by the versions with transitions):
 * the 409 a transition answers when the resource is not in a state it starts from. (`namespace.ts` builds
 * the transition methods.)
 * @module
 */
import { ConflictError, ERRORS } from "./failures.js";

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
    return [this.problem?.["allowed"]]
      .flat()
      .filter((a): a is string => typeof a === "string");
  }
}

// Registered where errors are chosen: a transition's 409 `invalid_transition` is this error.
ERRORS["409 invalid_transition"] = InvalidTransitionError;
