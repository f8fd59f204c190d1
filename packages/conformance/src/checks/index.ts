/**
 * @module Every check by id: those run on each collection of each version, those that judge every exchange
 * (`observed`), and the one that spans versions. Keyed by {@link CheckId}, so a check without its place here
 * does not compile.
 */
import type { CheckId } from '../types.js';
import { etag, ifMatchDelete, ifMatchRequired, ifMatchUpdate, ifNoneMatch } from './conditional.js';
import { deleteCheck, readOnlyAssigned, replaceComplete, roundTrip, updatePartial } from './crud.js';
import { bounds } from './bounds.js';
import type { CheckDefinition } from './definition.js';
import { filters } from './filters.js';
import { idempotentCreate } from './idempotency.js';
import { cursorTampered, pagination, paginationConcurrent } from './pagination.js';
import { transitions, transitionsConcurrent } from './transitions.js';
import { unique } from './unique.js';

export type { CheckDefinition } from './definition.js';
export { checkVersions } from './versions.js';

/** How each check runs. */
export const DEFINITIONS: { readonly [K in CheckId]: CheckDefinition | 'observed' | 'across-versions' } = {
  'documented-answers': 'observed',
  'write-only-hidden': 'observed',
  'declared-fields': 'observed',
  'round-trip': roundTrip,
  'read-only-assigned': readOnlyAssigned,
  'update-partial': updatePartial,
  'replace-complete': replaceComplete,
  bounds,
  delete: deleteCheck,
  unique,
  filters,
  pagination,
  'pagination-concurrent': paginationConcurrent,
  'cursor-tampered': cursorTampered,
  etag,
  'if-none-match': ifNoneMatch,
  'if-match-required': ifMatchRequired,
  'if-match-update': ifMatchUpdate,
  'if-match-delete': ifMatchDelete,
  transitions,
  'transitions-concurrent': transitionsConcurrent,
  'idempotent-create': idempotentCreate,
  versions: 'across-versions',
};
