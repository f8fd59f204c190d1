/**
 * @module Test helper: what the zod the tests run on offers. `npm run test:zod-floor` runs the runtime's zod tests on
 * the oldest zod the peer range allows (4.0), which lacks some of what later releases added; a test builds a schema
 * with such a feature only where the zod at hand has it.
 */
import { z } from 'zod';

/** Whether this zod has `.exactOptional()` (added after 4.0). */
export const hasExactOptional = typeof (z.string() as unknown as { exactOptional?: unknown }).exactOptional === 'function';
