/**
 * Lifecycles in the client (copied only for APIs that have one, imported by the versions with transitions):
 * the 409 a transition answers when the resource is not in a state it starts from. (`namespace.ts` builds
 * the transition methods; a version with transitions hands it {@link TRANSITION_ERRORS}, so importing this
 * module changes nothing, and a bundle without transitions drops it.)
 * @module
 */
import { ConflictError, type ApiError } from "./failures.js";

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

/** The errors of a transition's answers, by `"<status> <problem code>"`, before those of every request. */
export const TRANSITION_ERRORS: Record<string, typeof ApiError> = {
  "409 invalid_transition": InvalidTransitionError,
};
