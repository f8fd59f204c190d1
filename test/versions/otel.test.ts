/**
 * The OpenTelemetry adapter (`@restgen/runtime/otel`) against the OpenTelemetry SDK's in-memory exporter:
 * requests over HTTP to the ledger example become data points of `restgen.version.requests`, one series
 * per version, source, operation and principal, summed per request: enough to answer "who still calls
 * version X".
 */
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { VERSION_REQUESTS, createVersionMetrics } from '../../packages/runtime/src/otel.ts';
import { startLedger, type Ledger } from './ledger.ts';

/** A meter provider whose metrics land in memory when flushed. */
function inMemory(): { provider: MeterProvider; collect: () => Promise<MetricData[]> } {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported only when flushed: the interval (an hour) never fires during a test.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    collect: async () => {
      await reader.forceFlush();
      return (
        exporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((s) => s.metrics) ?? []
      );
    },
  };
}

/** The data points of the version counter: attributes and value. */
function points(all: readonly MetricData[]): { attributes: Record<string, unknown>; value: unknown }[] {
  const counter = all.find((m) => m.descriptor.name === VERSION_REQUESTS);
  return (counter?.dataPoints ?? []).map((p) => ({ attributes: { ...p.attributes }, value: p.value }));
}

let ledger: Ledger | undefined;
let provider: MeterProvider | undefined;
afterEach(async () => {
  await ledger?.server.close();
  await provider?.shutdown();
  metrics.disable();
});

const get = (key: string, version?: string) =>
  ledger!.server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': key, ...(version ? { 'ledger-version': version } : {}) } });

describe('createVersionMetrics', () => {
  it('counts requests per version, source, operation and principal', async () => {
    const memory = inMemory();
    provider = memory.provider;
    ledger = await startLedger('versions-otel', { onVersionUse: createVersionMetrics({ meter: provider.getMeter('test') }) });
    await get('key-old');
    await get('key-old');
    await get('key-new', '2025-03-01');
    await get('key-new');
    await ledger.server.call('GET', '/accounts', { token: null, headers: { 'ledger-version': '2025-09-01' } });
    const all = await memory.collect();
    const counter = all.find((m) => m.descriptor.name === VERSION_REQUESTS)!;
    expect(counter.descriptor).toMatchObject({ unit: '{request}' });
    const old = { 'restgen.version': '2025-01-15', 'restgen.version.deprecated': true, 'restgen.collection': 'accounts', 'restgen.operation': 'list' };
    expect(points(all)).toEqual(
      expect.arrayContaining([
        { attributes: { ...old, 'restgen.version.source': 'pinned', 'restgen.principal': 'acct-old' }, value: 2 },
        { attributes: { ...old, 'restgen.version.source': 'header', 'restgen.principal': 'acct-new' }, value: 1 },
        {
          attributes: {
            'restgen.version': '2025-09-01',
            'restgen.version.source': 'default',
            'restgen.version.deprecated': false,
            'restgen.collection': 'accounts',
            'restgen.operation': 'list',
            'restgen.principal': 'acct-new',
          },
          value: 1,
        },
      ]),
    );
    // The anonymous request was refused (401) before its caller was known: not counted.
    expect(points(all)).toHaveLength(3);
    // Who still calls 2025-01-15: the principals of its series.
    const callers = points(all)
      .filter((p) => p.attributes['restgen.version'] === '2025-01-15')
      .map((p) => p.attributes['restgen.principal']);
    expect([...new Set(callers)].sort()).toEqual(['acct-new', 'acct-old']);
  });

  it('leaves out the principal and the operation when asked, and uses the global meter provider by default', async () => {
    const memory = inMemory();
    provider = memory.provider;
    metrics.setGlobalMeterProvider(provider);
    ledger = await startLedger('versions-otel', { onVersionUse: createVersionMetrics({ principal: false, operation: false }) });
    await get('key-old');
    await get('key-dated');
    expect(points(await memory.collect())).toEqual([
      { attributes: { 'restgen.version': '2025-01-15', 'restgen.version.source': 'pinned', 'restgen.version.deprecated': true }, value: 2 },
    ]);
  });
});
