/**
 * @module The files `restgen init` writes: a starter API module with two versions, and a config file.
 * Text only; `commands/init.ts` decides where they go and never overwrites anything.
 */

/** A starter API named `name`, whose first version was released on `released` (`YYYY-MM-DD`). */
export function starterApi(name: string, released: string): string {
  return `/**
 * The API restgen generates code from, described as it is in its newest version; version markers
 * (renamedFrom, addedIn, removedIn, ...) say how it was before. \`npm run generate\` writes generated/.
 * v1 is released, so its contract is frozen in restgen.lock.json; v2 may still change freely.
 */
import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: '${name}',
  versions: {
    v1: { released: '${released}' },
    v2: {},
  },
  auth: { bearer: {} },
  collections: {
    tasks: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1).max(200).renamedFrom('name', 'v2'),
        done: f.boolean().default(false).filterable(),
        due: f.date().optional().addedIn('v2'),
        createdAt: f.datetime().readOnly(),
      },
      scopes: { read: 'tasks:read', write: 'tasks:write' },
    }),
  },
});
`;
}

/** A starter `restgen.config.ts` for the API module at `api` (relative, POSIX). */
export function starterConfig(api: string): string {
  return `import { defineConfig } from 'restgen';

export default defineConfig({
  api: '${api}',
  out: 'generated',
  // Only some parts, e.g. in a front-end package: generate: ['client', 'zod'],
});
`;
}
