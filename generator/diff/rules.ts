/**
 * @module The rules of `breaking-changes.md` as data: each rule has a verdict per side of the data flow
 * (request, response) or none where the table says "-". A finding's level is the worse verdict over the
 * sides the change actually flows on; when the two verdicts differ, the id is prefixed with the side that
 * decided (`request-field-became-required`), so every id has exactly one level.
 */
import type { Flow, Level } from './types.ts';
import { LEVELS } from './types.ts';

/** A rule's verdict per side; `undefined` = the change does not exist on that side. */
export interface RuleVerdict {
  readonly request?: Level;
  readonly response?: Level;
  /** One line for the docs' reference of finding ids (docs/reference/findings.md). */
  readonly summary: string;
}

const B = 'breaking';
const W = 'warning';
const S = 'safe';

/** Every rule. The keys are the ids (before any side prefix). */
export const RULES = {
  'collection-removed': { request: B, response: B, summary: 'a collection was removed' },
  'collection-added': { request: S, response: S, summary: 'a collection was added' },
  'collection-path-changed': { request: B, response: B, summary: 'a collection is served at another path (a removal plus an addition)' },
  'collection-renamed': {
    request: W,
    response: W,
    summary: 'a collection was renamed at the same path: the wire is unchanged, generated client members are renamed',
  },
  'type-renamed': { request: W, response: W, summary: 'the generated type name of a collection changed (SDK only)' },
  'operation-removed': { request: B, response: B, summary: 'an operation was removed' },
  'operation-added': { request: S, response: S, summary: 'an operation was added' },
  'required-field-added': {
    request: B,
    response: S,
    summary: 'a required field without a default was added: creates and replaces that leave it out are refused',
  },
  'field-with-default-added': {
    request: B,
    response: S,
    summary:
      'a required field with a default was added: a replace (or an update that sends the nested object it is in) that leaves it out resets it to the default, which breaks such requests; creates get the default, and without such requests nothing breaks',
  },
  'optional-field-added': { request: S, response: S, summary: 'an optional field was added' },
  'required-field-removed': {
    request: B,
    response: B,
    summary: 'a required field was removed (request bodies are strict: a request that sends it now answers 400)',
  },
  'optional-field-removed': {
    request: B,
    response: W,
    summary: 'an optional field was removed (request bodies are strict: a request that sends it now answers 400)',
  },
  'field-renamed': { request: B, response: B, summary: 'a field was renamed (declared with renamedFrom)' },
  'possible-undeclared-rename': {
    request: W,
    response: W,
    summary: 'a field was removed and a similar one added in the same object: a rename without renamedFrom? (the hint names the marker)',
  },
  'possible-field-move': { request: W, response: W, summary: 'a field was removed and one of the same name and type added in a nested object: moved?' },
  'possible-collection-rename': {
    request: W,
    response: W,
    summary: 'a collection was removed and one with the same fields added: a rename without renamedFrom?',
  },
  'possible-enum-value-rename': { request: W, response: W, summary: 'an enum value was removed and a similar one added: renamed?' },
  'field-became-required': { request: B, response: S, summary: 'an optional field became required' },
  'field-became-optional': { request: S, response: B, summary: 'a required field became optional' },
  'field-type-changed': { request: B, response: B, summary: 'the type changed incompatibly (int to string)' },
  'field-type-widened': { request: S, response: B, summary: 'the type was widened (int to number)' },
  'field-type-narrowed': { request: B, response: S, summary: 'the type was narrowed (number to int)' },
  'field-format-changed': { request: B, response: B, summary: 'the string format changed (datetime to date, uuid to string, another ref target)' },
  'field-became-nullable': { request: S, response: B, summary: 'the field may now be null' },
  'field-became-non-nullable': { request: B, response: S, summary: 'the field may no longer be null' },
  'enum-value-added': { request: S, response: W, summary: 'an enum value was added' },
  'enum-value-removed': { request: B, response: W, summary: 'an enum value was removed' },
  'field-became-enum': { request: B, response: S, summary: 'a free string became an enum' },
  'field-no-longer-enum': { request: S, response: B, summary: 'an enum became a free string' },
  'bound-tightened': { request: B, response: S, summary: 'a bound was tightened (max length down, minimum up, min items up, max items down)' },
  'bound-loosened': { request: S, response: B, summary: 'a bound was loosened or removed' },
  'bound-added': { request: B, response: S, summary: 'a bound was set where there was none' },
  'pattern-added': { request: B, response: S, summary: 'a pattern was added' },
  'pattern-removed': { request: S, response: B, summary: 'a pattern was removed' },
  'pattern-changed': { request: W, response: W, summary: 'a pattern changed (whether it narrows cannot be decided)' },
  'existing-data-may-not-satisfy': {
    response: W,
    summary:
      'existing data may not satisfy this: a bound was tightened or set, a pattern added or changed, or an enum value removed on a stored field (records written before keep their values; the server still answers them, logged)',
  },
  'default-changed': { request: W, response: S, summary: 'the default value changed, was added or was removed' },
  'field-became-read-only': { request: B, summary: 'a writable field became read-only: requests that send it are rejected' },
  'field-became-unique': { request: B, summary: 'values must now be unique (a duplicate answers 409)' },
  'field-no-longer-unique': { request: S, summary: 'values no longer need to be unique' },
  'field-deprecated': { request: S, response: S, summary: 'a field was marked deprecated' },
  'query-parameter-added': { request: S, summary: 'a list filter (optional query parameter) was added' },
  'query-parameter-removed': { request: B, summary: 'a list filter was removed without being deprecated first (unknown query parameters answer 400)' },
  'deprecated-query-parameter-removed': { request: S, summary: 'a deprecated list filter was removed' },
  'operation-no-longer-public': { request: B, summary: 'a public operation now needs a credential' },
  'operation-became-public': { request: S, summary: 'an operation no longer needs a credential' },
  'scope-added': { request: B, summary: 'an operation needs an additional scope' },
  'scope-removed': { request: S, summary: 'an operation needs fewer scopes' },
  'auth-scheme-removed': { request: B, summary: 'a credential scheme (bearer, API key header) is no longer accepted' },
  'auth-scheme-added': { request: S, summary: 'a credential scheme is accepted in addition' },
  'oauth2-flow-removed': { request: B, summary: 'an OAuth 2.0 flow was removed: clients using it can no longer obtain tokens' },
  'oauth2-flow-added': { request: S, summary: 'an OAuth 2.0 flow was added (also when oauth2 replaces bearer: the wire credential is the same)' },
  'oauth2-url-changed': {
    request: B,
    summary:
      "an OAuth 2.0 flow's authorization, token or refresh URL changed or was removed: clients that have it written down (a generated client's default token URL) fail",
  },
  'oauth2-url-added': { request: S, summary: 'an OAuth 2.0 flow got a refresh URL' },
  'oauth2-scope-removed': { request: B, summary: 'a scope is no longer declared: clients that request it are refused by the identity provider' },
  'oauth2-scope-declared': { request: S, summary: 'a scope was declared' },
  'list-default-limit-changed': { request: W, summary: 'the default page size of a list changed' },
  'list-max-limit-lowered': { request: B, summary: 'the maximum page size of a list was lowered' },
  'list-max-limit-raised': { request: S, summary: 'the maximum page size of a list was raised' },
  'rate-limit-lowered': { request: W, summary: 'fewer requests are allowed per window (clients see more 429s)' },
  'rate-limit-raised': { request: S, summary: 'more requests are allowed per window, or no limit' },
  'transition-added': { request: S, response: S, summary: 'a lifecycle transition (custom method POST .../{id}:<name>) was added' },
  'transition-removed': { request: B, response: B, summary: 'a lifecycle transition was removed' },
  'transition-from-narrowed': { request: B, summary: 'a transition starts from fewer states: calls from the others now answer 409' },
  'transition-from-widened': { request: S, summary: 'a transition starts from more states' },
  'transition-target-changed': { request: B, response: B, summary: 'a transition leads to another state' },
  'state-added': { request: S, response: W, summary: 'a lifecycle state was added (as an enum value of the state field)' },
  'state-removed': { request: B, response: W, summary: 'a lifecycle state was removed (as an enum value of the state field)' },
  'initial-state-changed': { response: W, summary: 'new resources start in another lifecycle state' },
  'if-match-required': { request: B, summary: 'writes now need If-Match (without it they answer 428)' },
  'if-match-no-longer-required': { request: S, summary: 'writes no longer need If-Match' },
  'event-added': { response: S, summary: 'a webhook event type was added' },
  'event-removed': { response: B, summary: 'a webhook event type was removed: subscribers to it receive nothing more' },
  'versioning-changed': { request: B, response: B, summary: 'clients select the version another way (path or header)' },
  'version-added': { request: S, response: S, summary: 'a version was added' },
  'version-removed': { request: B, response: B, summary: 'a version was removed before its sunset had passed' },
  'version-removed-after-sunset': { request: S, response: S, summary: 'a deprecated version was removed after its sunset' },
  'version-released': { request: S, response: S, summary: 'a version was released (it is frozen from now on)' },
  'version-unreleased': { request: B, response: B, summary: 'a released version lost its release date' },
  'version-release-date-changed': { request: W, response: W, summary: 'the release date of a released version changed' },
  'version-deprecated': { request: S, response: S, summary: 'a version was deprecated (or its deprecation date moved)' },
  'version-undeprecated': { request: S, response: S, summary: 'a deprecation was withdrawn' },
  'version-sunset-set': { request: S, response: S, summary: 'a sunset date was announced' },
  'version-sunset-moved-earlier': { request: B, response: B, summary: 'the sunset date moved earlier' },
  'version-sunset-moved-later': { request: S, response: S, summary: 'the sunset date moved later or was withdrawn' },
} as const satisfies Record<string, RuleVerdict>;

/** A rule name (an id before any side prefix). */
export type RuleName = keyof typeof RULES;

const rank = (level: Level): number => LEVELS.indexOf(level);

/** The worse of two levels. */
export function worse(a: Level, b: Level): Level {
  return rank(a) <= rank(b) ? a : b;
}

/**
 * Applies `rule` to a change flowing as `flow`: the worse verdict over the sides it flows on, the id
 * (prefixed with the deciding side when the two verdicts differ), and the sides that decided it: a change
 * breaking only requests has `request` alone, so its report lists only the routes that take requests.
 * `undefined` when the change flows on no side the rule knows.
 */
export function verdictOf(rule: RuleName, flow: Flow): { id: string; level: Level; request: boolean; response: boolean } | undefined {
  const v: RuleVerdict = RULES[rule];
  const request = v.request !== undefined && flow.request.length > 0;
  const response = v.response !== undefined && flow.response.length > 0;
  if (!request && !response) return undefined;
  const levels: { side: 'request' | 'response'; level: Level }[] = [];
  if (request) levels.push({ side: 'request', level: v.request! });
  if (response) levels.push({ side: 'response', level: v.response! });
  const decided = levels.reduce((a, b) => (rank(b.level) < rank(a.level) ? b : a));
  const prefixed = v.request !== undefined && v.response !== undefined && v.request !== v.response;
  const deciding = (side: 'request' | 'response') => levels.some((l) => l.side === side && l.level === decided.level);
  return { id: prefixed ? `${decided.side}-${rule}` : rule, level: decided.level, request: deciding('request'), response: deciding('response') };
}

/** Every finding id with its level, for documentation: `request-x` and `response-x` where the sides differ. */
export function allFindingIds(): { id: string; level: Level; summary: string }[] {
  const out: { id: string; level: Level; summary: string }[] = [];
  for (const [name, v] of Object.entries(RULES) as [RuleName, RuleVerdict][]) {
    if (v.request !== undefined && v.response !== undefined && v.request !== v.response) {
      out.push({ id: `request-${name}`, level: v.request, summary: `${v.summary} (decided by requests)` });
      out.push({ id: `response-${name}`, level: v.response, summary: `${v.summary} (decided by responses)` });
    } else out.push({ id: name, level: (v.request ?? v.response)!, summary: v.summary });
  }
  return out;
}
