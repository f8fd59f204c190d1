/**
 * `@restgen/runtime/otel`: records version usage as OpenTelemetry metrics. Pass what `createVersionMetrics`
 * returns as `onVersionUse`: every request that resolved a version adds 1 to the counter
 * `restgen.version.requests` with the version, how it was chosen, whether it is deprecated, the operation
 * and the principal as attributes, so a query answers "who still calls version X". The only module of the
 * package that imports `@opentelemetry/api` (an optional peer dependency: install it to use this one).
 */
import { metrics, type Attributes, type Meter } from '@opentelemetry/api';
import type { VersionUse } from './types.js';

/** The counter's name (Prometheus shows it as `restgen_version_requests_total`). */
export const VERSION_REQUESTS = 'restgen.version.requests';

/** Options of {@link createVersionMetrics}. */
export interface VersionMetricsOptions {
  /** The meter to create the counter with (default: the global meter provider's `@restgen/runtime` meter). */
  readonly meter?: Meter;
  /**
   * Record the principal's id as `restgen.principal` (default true): it is what tells who still calls a
   * version, and every principal is a time series of its own. `false` keeps only version and operation.
   */
  readonly principal?: boolean;
  /** Record the collection and operation (default true); `false` counts per version and principal only. */
  readonly operation?: boolean;
}

/**
 * An `onVersionUse` listener that counts requests per version in `restgen.version.requests` (unit
 * `{request}`), with the attributes `restgen.version`, `restgen.version.source` (`header`, `pinned`,
 * `default`, `path`), `restgen.version.deprecated`, `restgen.collection`, `restgen.operation` and
 * `restgen.principal` (absent for anonymous requests).
 * @example
 * import { createVersionMetrics } from "@restgen/runtime/otel";
 * await registerLedgerApi(app, handlers, { apiKeys, onVersionUse: createVersionMetrics() });
 */
export function createVersionMetrics(options: VersionMetricsOptions = {}): (use: VersionUse) => void {
  const meter = options.meter ?? metrics.getMeter('@restgen/runtime');
  const counter = meter.createCounter(VERSION_REQUESTS, {
    description: 'Requests that resolved an API version, by version, how it was chosen, operation and principal.',
    unit: '{request}',
  });
  const withPrincipal = options.principal !== false;
  const withOperation = options.operation !== false;
  return (use) => {
    const attributes: Attributes = {
      'restgen.version': use.version,
      'restgen.version.source': use.source,
      'restgen.version.deprecated': use.deprecated,
    };
    if (withOperation) {
      attributes['restgen.collection'] = use.collection;
      attributes['restgen.operation'] = use.operation;
    }
    if (withPrincipal && use.principal !== null) attributes['restgen.principal'] = use.principal;
    counter.add(1, attributes);
  };
}
