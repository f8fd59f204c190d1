/**
 * One process of the start-up benchmark, from node's start to its first answer: the synthetic API's
 * generated server (`generated`: `registerBenchApi` over the route specs), or the same routes written by
 * hand with plain Fastify and the same generated zod schemas (`hand`: every version's list, get, create,
 * replace, update and delete of every collection, the request parsed by zod, the handler's value sent as
 * JSON; the credential checked and the API-wide limit counted in one hook, as the generated routes do).
 * Both call the same trivial handlers. Prints its port once it listens, and exits when its stdin closes
 * (the benchmark closes it after the first answer). Args: the compiled generated folder, the variant and the number of collections.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';

const outDir = process.argv[2]!;
const variant = process.argv[3] as 'generated' | 'hand';
/** The synthetic API's collections, `things0` to `things<count - 1>`. */
const count = Number(process.argv[4]);
const VERSIONS = ['v1', 'v2', 'v3'] as const;
const KEY = 'bench-key';

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const THING = {
  id: ID,
  name: 'a thing',
  quantity: 2,
  price: 9.5,
  status: 'active',
  tags: ['new'],
  legacyCode: 'L1',
  notes: 'kept',
  createdAt: '2026-03-01T00:00:00.000Z',
};
/** The business logic every variant calls: nothing stored, so only the HTTP path and registration are measured. */
const handlers = {
  list: () => ({ data: [THING], next_cursor: null }),
  get: () => THING,
  create: (body: object) => ({ ...THING, ...body }),
  replace: (_id: string, body: object) => ({ ...THING, ...body }),
  update: (_id: string, body: object) => ({ ...THING, ...body }),
  delete: () => undefined,
};

const app = Fastify({ logger: false });
const module = (file: string) => import(pathToFileURL(path.join(outDir, file)).href) as Promise<Record<string, unknown>>;

if (variant === 'generated') {
  const server = (await module('server/index.js')) as {
    registerBenchApi: (app: ReturnType<typeof Fastify>, handlers: object, options: object) => Promise<void>;
  };
  const scopes = Array.from({ length: count }, (_, i) => [`things${i}:read`, `things${i}:write`]).flat();
  await server.registerBenchApi(app, Object.fromEntries(Array.from({ length: count }, (_, i) => [`things${i}`, handlers])), {
    authenticate: (credential: { token: string }) => (credential.token === KEY ? { id: 'bench', scopes } : null),
  });
} else {
  const schemas = await Promise.all(VERSIONS.map((v) => module(`${v}/schemas.js`)));
  // The API-wide limit (100 a minute per caller) and the credential, checked before any body is read.
  await app.register(rateLimit, { global: false });
  const limit = app.createRateLimit({ max: 100, timeWindow: 60_000, keyGenerator: (request) => String(request.headers['x-api-key'] ?? request.ip) });
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers['x-api-key'] !== KEY) return reply.code(401).send({ title: 'Unauthorized' });
    const counted = await limit(request);
    if (!counted.isAllowed && counted.isExceeded) return reply.code(429).send({ title: 'Too Many Requests' });
    return undefined;
  });
  const parsing =
    (schema: z.ZodType, from: 'body' | 'query', answer: (data: object, request: FastifyRequest, reply: FastifyReply) => unknown) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const parsed = schema.safeParse(request[from]);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      return answer(parsed.data as object, request, reply);
    };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  VERSIONS.forEach((version, v) => {
    const zod = schemas[v]! as Record<string, z.ZodType>;
    for (let i = 0; i < count; i++) {
      const name = `Things${i}`;
      const url = `/${version}/things${i}`;
      app.get(
        url,
        parsing(zod[`${name}ListQuery`]!, 'query', () => handlers.list()),
      );
      app.get(`${url}/:id`, async () => handlers.get());
      app.post(
        url,
        parsing(zod[`${name}Create`]!, 'body', (body, _request, reply) => reply.code(201).send(handlers.create(body))),
      );
      app.put(
        `${url}/:id`,
        parsing(zod[`${name}Replace`]!, 'body', (body, request) => handlers.replace(idOf(request), body)),
      );
      app.patch(
        `${url}/:id`,
        parsing(zod[`${name}Patch`]!, 'body', (body, request) => handlers.update(idOf(request), body)),
      );
      app.delete(`${url}/:id`, async (_request, reply) => {
        handlers.delete();
        return reply.code(204).send();
      });
    }
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
