import { describe, expect, it } from 'vitest';
import { project } from '../generator/model/project.ts';
import { loadIr } from './helpers/load-ir.ts';

describe('example shop API', () => {
  it('loads and projects every version', async () => {
    const ir = await loadIr();
    expect(ir.versions.map((v) => v.name)).toEqual(['v1', 'v2', 'v3']);
    const v1 = project(ir, 'v1');
    // The orders send events, so restgen adds the webhook endpoints.
    expect(v1.collections.map((c) => c.name)).toEqual(['customers', 'orders', 'webhook_endpoints']);
    expect(v1.collections[1]!.fields.map((f) => f.name)).toContain('qty');
    expect(project(ir, 'v3').collections.map((c) => c.name)).toContain('coupons');
  });
});
