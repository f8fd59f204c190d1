/**
 * @module Every check by id: those run on each collection of each version, those that judge every exchange
 * (`observed`), and the one that spans versions. Keyed by {@link CheckId}, so a check without its place here
 * does not compile.
 */
import type { CheckId } from '../types.ts';
import { etag, ifMatchDelete, ifMatchRequired, ifMatchUpdate, ifNoneMatch } from './conditional.ts';
import { deleteCheck, readOnlyAssigned, replaceComplete, roundTrip, updatePartial } from './crud.ts';
import type { CheckDefinition } from './definition.ts';
import { expand } from './expand.ts';
import { filters } from './filters.ts';
import { idempotentCreate } from './idempotency.ts';
import { fieldMasks } from './masks.ts';
import { filterOperators } from './operators.ts';
import { cursorTampered, pagination, paginationConcurrent } from './pagination.ts';
import { cursorMismatch, sort } from './sort.ts';
import { transitions, transitionsConcurrent } from './transitions.ts';
import { unique } from './unique.ts';

export type { CheckDefinition } from './definition.ts';
export { checkVersions } from './versions.ts';

/** How each check runs. */
export const DEFINITIONS: { readonly [K in CheckId]: CheckDefinition | 'observed' | 'across-versions' } = {
  'documented-answers': 'observed',
  'write-only-hidden': 'observed',
  'round-trip': roundTrip,
  'read-only-assigned': readOnlyAssigned,
  'update-partial': updatePartial,
  'replace-complete': replaceComplete,
  delete: deleteCheck,
  unique,
  filters,
  pagination,
  'pagination-concurrent': paginationConcurrent,
  'cursor-tampered': cursorTampered,
  sort,
  'filter-operators': filterOperators,
  'cursor-mismatch': cursorMismatch,
  'field-masks': fieldMasks,
  expand,
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
