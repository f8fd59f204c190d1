/**
 * Serving the API's OpenAPI documents: each version's generated `openapi/<version>.json` at
 * `/<version>/openapi.json` (or `/openapi.json` chosen by the version header; `options.openapi` moves it or
 * turns it off). Public: no credential, no rate limit. A deprecated version's document carries its
 * Deprecation, Sunset and Link headers. Each document is opened at startup (a missing or unreadable one
 * stops it) and read once, when it is first asked for: a large API's documents are megabytes of JSON that
 * a server which is never asked for them does not hold.
 */
import { open, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describeThrown, logSafely } from './contain.js';
import { isRecord } from './guards.js';
import type { Placed } from './paths.js';
import type { MountedSpec, VersionSpec } from './spec.js';
import { INTERNAL, send } from './problems.js';
import type { Entry } from './state.js';
import type { ServerOptions } from './types.js';

/** The routes of the documents (none when `option` is false); a missing or unreadable document is a startup error. */
export async function placeDocuments(spec: MountedSpec, option: ServerOptions['openapi'], prefix: string): Promise<Placed[]> {
  if (option === false) return [];
  const owner = `register${spec.name}Api`;
  const url = '/' + (option?.path ?? 'openapi.json').replace(/^\/+/, '');
  const first = url.split('/')[1];
  if (url === '/' || spec.versions.some((v) => v.routes.some((r) => r.path === first)))
    throw new Error(`${owner}: options.openapi.path ${JSON.stringify(option?.path)} is empty or inside a collection's path; choose another.`);
  const found = await Promise.allSettled(spec.versions.map((v) => checkDocument(owner, v.document)));
  // The oldest version's failure, whichever check failed first.
  const failed = found.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return spec.versions.map((version) => ({
    version: version.name,
    url,
    method: 'GET',
    entry: documentEntry(
      version,
      readOnce(() => readDocument(owner, version.document, prefix)),
    ),
  }));
}

/** `read()`'s promise, kept once it fulfils (a failed read is tried again on the next call). */
function readOnce(read: () => Promise<string>): () => Promise<string> {
  let text: Promise<string> | null = null;
  return () =>
    (text ??= read().catch((error: unknown) => {
      text = null;
      throw error;
    }));
}

/** The path of a document's URL, for messages. */
const fileOf = (url: URL): string => (url.protocol === 'file:' ? fileURLToPath(url) : url.href);

/** Throws the startup error of a document that does not exist or cannot be read. */
async function checkDocument(owner: string, url: URL): Promise<void> {
  try {
    const handle = await open(url, 'r');
    try {
      // A folder opens too; reading it is what fails.
      if (!(await handle.stat()).isFile()) throw new Error('not a file (EISDIR)');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(owner, url, error);
  }
}

/** The startup error of a document that is missing or cannot be read. */
function unreadable(owner: string, url: URL, error: unknown): Error {
  const file = fileOf(url);
  const missing = isRecord(error) && error['code'] === 'ENOENT';
  return new Error(
    `${owner}: ${missing ? `the OpenAPI document ${file} does not exist` : `cannot read the OpenAPI document ${file} (${String(error)})`}; run \`restgen generate\` to write it, or pass openapi: false.`,
    { cause: error },
  );
}

/**
 * The public entry of a document: lifecycle headers (no 410: the document of a retired or browned-out
 * version still tells its clients where to go), then the document.
 */
function documentEntry(version: VersionSpec, body: () => Promise<string>): Entry {
  const { deprecation, sunset } = version;
  const link = version.link ?? null;
  return {
    gate:
      deprecation === null && sunset === null && link === null
        ? null
        : async (_request, reply) => {
            if (deprecation !== null) reply.header('deprecation', deprecation);
            if (sunset !== null) reply.header('sunset', sunset);
            if (link !== null) reply.header('link', link);
            return undefined;
          },
    handle: async (request, reply) => {
      let text: string;
      try {
        text = await body();
      } catch (error) {
        // Opened at startup, but gone or broken since: the log says which file and how to fix it.
        logSafely(request.log, 'error', { err: error }, describeThrown(error).message);
        return send(reply, INTERNAL);
      }
      return reply.type('application/json; charset=utf-8').send(text);
    },
  };
}

/**
 * The document's text; with a prefix, a copy whose `servers[0].url` is the prefix (the paths are relative to it),
 * unless the API declares its servers: absolute URLs where it is published, whose paths already hold any prefix.
 */
async function readDocument(owner: string, url: URL, prefix: string): Promise<string> {
  const file = fileOf(url);
  let text: string;
  try {
    text = await readFile(url, 'utf8');
  } catch (error) {
    throw unreadable(owner, url, error);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${owner}: the OpenAPI document ${file} is not JSON (${String(error)}); run \`restgen generate\` to rewrite it.`, { cause: error });
  }
  if (prefix === '') return text;
  if (!isRecord(document)) throw new Error(`${owner}: the OpenAPI document ${file} is not an object; run \`restgen generate\` to rewrite it.`);
  const servers: unknown[] = Array.isArray(document['servers']) ? document['servers'] : [];
  const server = isRecord(servers[0]) ? servers[0] : {};
  if (typeof server['url'] === 'string' && /^https?:\/\//.test(server['url'])) return text;
  return JSON.stringify({
    ...document,
    servers: [{ ...server, url: prefix }, ...servers.slice(1)],
  });
}
