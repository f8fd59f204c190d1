/**
 * @module The lock: `restgen.lock.json` holds the wire contract of every released version, so a breaking
 * edit to a released version is caught by `generate` and `check` (RG180).
 */
export { apiAtOfContract, contractOf, type CollectionContract, type FieldContract, type TypeContract, type VersionContract } from './contract.ts';
export { compareWithLock, type CompareLockOptions, type LockComparison } from './compare-lock.ts';
export { LOCK_FILE_NAME, lockPathFor, parseLock, readLockFile, sameJson, serializeLock, writeLockFile, type LockFile } from './lock-file.ts';
