/**
 * XML writes end to end over HTTP, on an API of the test's own (`formats: ['json', 'xml']`, path versions, a
 * field renamed in v2, a lifecycle with a transition input, and a file): updates, replaces and transitions with
 * XML bodies answer exactly what their JSON twins answer (values typed by the schema, `<i>` items, `xsi:nil`),
 * failures included; an older version reads and writes its own element names; a resource with a file answers
 * its metadata in XML, read back by the independent parser; and a download is the file whatever `Accept` says.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromIndependentXml } from '../helpers/xml.ts';
import { TMP, generateInto, importServer, registerOf, start, type Running } from './helpers.ts';

const API = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'desk',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { bearer: {} },
  formats: ['json', 'xml'],
  collections: {
    tickets: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1).max(100).renamedFrom('subject', 'v2'),
        priority: f.int().min(1).max(5),
        urgent: f.boolean().default(false),
        tags: f.array(f.string().max(10)).max(3).default([]),
        note: f.string().optional().nullable(),
        attachment: f.file({ maxBytes: 1024, types: ['application/pdf'] }).optional(),
        status: f.enum(['open', 'closed']).readOnly(),
      },
      lifecycle: {
        field: 'status',
        initial: 'open',
        transitions: { close: { from: ['open'], to: 'closed', input: { resolution: f.string().min(3), minutes: f.int().min(0).optional() } } },
      },
    }),
  },
});
`;

let server: Running;
beforeAll(async () => {
  const dir = path.join(TMP, 'xml-writes-api');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'api.ts'), API);
  const mod = await importServer(await generateInto('xml-writes', path.join(dir, 'api.ts')));
  server = await start((app) =>
    registerOf(mod, 'Desk')(app, mod.createMemoryHandlers(), { authenticate: ({ token }: { token: string }) => ({ id: token, scopes: [] }) }),
  );
});
afterAll(() => server.close());

/** One request; the answer's status, headers and text. */
async function raw(method: string, url: string, headers: Record<string, string> = {}, body?: string | FormData) {
  const response = await fetch(server.url + url, { method, headers: { authorization: 'Bearer t', ...headers }, ...(body !== undefined ? { body } : {}) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
const json = (method: string, url: string, body?: unknown) =>
  raw(method, url, body === undefined ? {} : { 'content-type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));
const xml = (method: string, url: string, body: string) => raw(method, url, { 'content-type': 'application/xml' }, body);

/** Two tickets alike, one to write to with JSON, the other with XML. */
async function pair(): Promise<[string, string]> {
  const make = async () => JSON.parse((await json('POST', '/v2/tickets', { title: 'Printer', priority: 2 })).text) as { id: string };
  return [(await make()).id, (await make()).id];
}
/** An answer without what differs between two tickets (their ids, and the ETag of a different resource). */
const same = (answer: { status: number; text: string }) => {
  const value = JSON.parse(answer.text) as Record<string, unknown>;
  delete value['id'];
  if (typeof value['instance'] === 'string') value['instance'] = String(value['instance']).replace(/[0-9a-f-]{36}/, '{id}');
  return { status: answer.status, value };
};

describe('XML bodies of updates, replaces and transitions', () => {
  it('an update and a replace answer what their JSON twins answer: numbers, booleans, arrays and null typed by the schema', async () => {
    const [a, b] = await pair();
    const patchJson = await json('PATCH', `/v2/tickets/${a}`, { priority: 5, urgent: true, tags: ['net', 'floor2'], note: null });
    const patchXml = await xml(
      'PATCH',
      `/v2/tickets/${b}`,
      '<ticket xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><priority> 5 </priority><urgent>true</urgent><tags><i>net</i><i>floor2</i></tags><note xsi:nil="true"/></ticket>',
    );
    expect(patchJson.status).toBe(200);
    expect(same(patchXml)).toEqual(same(patchJson));
    expect(JSON.parse(patchXml.text)).toMatchObject({ priority: 5, urgent: true, tags: ['net', 'floor2'], note: null });
    const putJson = await json('PUT', `/v2/tickets/${a}`, { title: 'Scanner', priority: 1, tags: [] });
    const putXml = await xml('PUT', `/v2/tickets/${b}`, '<ticket><title>Scanner</title><priority>1</priority><tags/></ticket>');
    expect(putJson.status).toBe(200);
    expect(same(putXml)).toEqual(same(putJson));
  });

  it('fail as their JSON twins fail: the same issues at the same pointers', async () => {
    const [a, b] = await pair();
    const badJson = await json('PATCH', `/v2/tickets/${a}`, { priority: 'high', urgent: 'yes', tags: ['a', 'b', 'c', 'd'], colour: 'red' });
    const badXml = await xml(
      'PATCH',
      `/v2/tickets/${b}`,
      '<ticket><priority>high</priority><urgent>yes</urgent><tags><i>a</i><i>b</i><i>c</i><i>d</i></tags><colour>red</colour></ticket>',
    );
    expect(badJson.status).toBe(400);
    expect(same(badXml)).toEqual(same(badJson));
    expect((JSON.parse(badXml.text) as { errors: { pointer: string }[] }).errors.map((e) => e.pointer)).toEqual(
      expect.arrayContaining(['#/priority', '#/urgent', '#/tags']),
    );
  });

  it('a transition reads its input from XML as from JSON, and refuses it alike', async () => {
    const [a, b] = await pair();
    const shortJson = await json('POST', `/v2/tickets/${a}:close`, { resolution: 'ok', minutes: -1 });
    const shortXml = await xml('POST', `/v2/tickets/${b}:close`, '<input><resolution>ok</resolution><minutes>-1</minutes></input>');
    expect(shortJson.status).toBe(400);
    expect(same(shortXml)).toEqual(same(shortJson));
    const closedJson = await json('POST', `/v2/tickets/${a}:close`, { resolution: 'toner replaced', minutes: 15 });
    const closedXml = await xml('POST', `/v2/tickets/${b}:close`, '<input><resolution>toner replaced</resolution><minutes>15</minutes></input>');
    expect(closedJson.status).toBe(200);
    expect(same(closedXml)).toEqual(same(closedJson));
    expect(JSON.parse(closedXml.text)).toMatchObject({ status: 'closed' });
  });

  it('an older version reads and writes its own element names', async () => {
    const created = await raw(
      'POST',
      '/v1/tickets',
      { 'content-type': 'application/xml', accept: 'application/xml' },
      '<ticket><subject>Fax</subject><priority>3</priority></ticket>',
    );
    expect(created.status).toBe(201);
    expect(created.text).toContain('<subject>Fax</subject>');
    const value = fromIndependentXml(created.text, 'ticket', { id: '', subject: '', priority: 0, urgent: false, tags: [], status: '' }) as { id: string };
    expect(value).toEqual({ id: value.id, subject: 'Fax', priority: 3, urgent: false, tags: [], status: 'open' });
    // v2 names the same field title.
    expect(JSON.parse((await json('GET', `/v2/tickets/${value.id}`)).text)).toMatchObject({ title: 'Fax' });
  });
});

describe('files in an XML API', () => {
  it('answers a file as its metadata in XML, and downloads the file itself whatever Accept says', async () => {
    const form = new FormData();
    form.append('title', 'Invoice question');
    form.append('priority', '2');
    form.append('attachment', new Blob(['%PDF-1.7\n%']), 'scan.pdf');
    const created = await raw('POST', '/v2/tickets', { accept: 'application/xml' }, form);
    expect([created.status, created.headers.get('content-type')]).toEqual([201, 'application/xml; charset=utf-8']);
    const id = /<id>([^<]+)<\/id>/.exec(created.text)![1]!;
    const asJson = JSON.parse((await json('GET', `/v2/tickets/${id}`)).text) as Record<string, unknown>;
    expect(asJson['attachment']).toMatchObject({ name: 'scan.pdf', type: 'application/pdf', size: 10, href: `/v2/tickets/${id}/attachment` });
    expect(fromIndependentXml(created.text, 'ticket', asJson)).toEqual(asJson);
    const download = await raw('GET', `/v2/tickets/${id}/attachment`, { accept: 'application/xml' });
    expect([download.status, download.headers.get('content-type'), download.text]).toEqual([200, 'application/pdf', '%PDF-1.7\n%']);
  });
});
