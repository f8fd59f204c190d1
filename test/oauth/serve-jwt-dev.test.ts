/**
 * `restgen serve --jwt-dev`, run as a child process as a user runs it (the built command line): bearer tokens go through the
 * generated server's real JWT verification with a key made at startup, the printed token carries every
 * scope, other tokens are refused, API keys are still accepted; an API without bearer tokens is a usage error.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createDevJwt, allScopes } from '../../generator/cli/jwt-dev.ts';
import { SHOP_API, loadIr } from '../helpers/load-ir.ts';
import { HEADER_API } from '../server/helpers.ts';

const BIN = new URL('../../bin/restgen.js', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

/** Runs `serve` with `args` until it prints its URL (or exits); returns what it printed and a way to stop it. */
function runServe(args: string[]): Promise<{ url: string | null; out: string; err: string; code: Promise<number | null>; stop: () => void }> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: ROOT });
  let out = '';
  let err = '';
  const code = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => {
    const done = (url: string | null) => resolve({ url, out, err, code, stop: () => void child.kill('SIGINT') });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url && out.includes('Authorization: Bearer ')) done(url);
    });
    void code.then(() => done(null));
  });
}

describe('restgen serve --jwt-dev', () => {
  it('verifies bearer tokens with a development key and prints a token with every scope', async () => {
    const served = await runServe([SHOP_API, '--port', '0', '--jwt-dev']);
    try {
      expect(served.url, served.err).not.toBeNull();
      expect(served.out).toContain(
        '--jwt-dev: tokens are verified as JWT access tokens (ES256, issuer restgen-dev, audience shop); this one has every scope (customers:read customers:write orders:cancel orders:read orders:write webhooks:read webhooks:write)',
      );
      const token = /Authorization: Bearer (\S+)/.exec(served.out)![1]!;
      const call = (path: string, authorization: Record<string, string>, body?: object) =>
        fetch(served.url + path, {
          method: body ? 'POST' : 'GET',
          headers: { ...authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const created = await call('/v2/customers', { authorization: `Bearer ${token}` }, { email: 'dev@example.com', name: 'Dev' });
      expect(created.status).toBe(201);
      expect((await call('/v2/customers', { authorization: `Bearer ${token}` })).status).toBe(200);
      const refused = await call('/v2/customers', { authorization: 'Bearer anything' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token", error_description="The access token is not a valid JWT."');
      const tampered = await call('/v2/customers', { authorization: `Bearer ${token.slice(0, -4)}AAAA` });
      expect(tampered.status).toBe(401);
      expect((await call('/v2/customers', { 'x-api-key': 'any key' })).status).toBe(200);
    } finally {
      served.stop();
      expect(await served.code).toBe(0);
    }
  }, 60_000);

  it('is a usage error for an API that takes no bearer tokens', async () => {
    const served = await runServe([HEADER_API, '--port', '0', '--jwt-dev']);
    expect(served.url).toBeNull();
    expect(await served.code).toBe(2);
    expect(served.err).toContain('restgen serve: --jwt-dev verifies bearer tokens, but notes takes none; declare auth.oauth2 (or bearer) in the API.');
  }, 60_000);

  it('signs an ES256 token whose claims name the development issuer, the API and every scope', async () => {
    const ir = await loadIr();
    const dev = createDevJwt(ir, Date.UTC(2026, 0, 1), 2);
    const [header, payload] = dev.token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toEqual({ iss: 'restgen-dev', aud: 'shop', sub: 'dev', scope: allScopes(ir).join(' '), iat: 1767225600, exp: 1767225600 + 7200 });
    expect(dev.options).toMatchObject({ issuer: 'restgen-dev', audience: 'shop', algorithms: ['ES256'] });
  });
});
