/**
 * Answers in the format the request negotiated: a resource or page written as JSON text is sent as it is, or
 * as the same value in XML (`application/xml`, or `text/xml` when the client prefers it); a problem as
 * `application/problem+json`, or `application/problem+xml` (RFC 9457 Appendix B). An API without XML never
 * negotiates, and answers JSON. `Accept` is read where a route answers: `acceptable` refuses (406) a request
 * whose `Accept` allows no format the API answers in.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatOfRequest, setAnswerFormat, xmlTypeOf } from './answer-format.js';
import { mediaTypesOf, negotiate, xmlMediaType } from './negotiate.js';
import { send } from './problems.js';
import type { Mount } from './state.js';
import { xmlOfJsonText } from './xml-write.js';

/** What Fastify sends JSON as: a body sent as text keeps the content type an object would get. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends an answer written as JSON text, or its XML when the request negotiated XML (`root`: the root element's name). */
export function sendJsonText(reply: FastifyReply, text: string, root: string | undefined): FastifyReply {
  if (root !== undefined && formatOfRequest(reply.request) === 'xml')
    return reply.type(`${xmlTypeOf(reply.request)}; charset=utf-8`).send(xmlOfJsonText(root, text));
  return reply.type(JSON_TYPE).send(text);
}

/**
 * Whether the request's `Accept` allows an answer in a format of the API (XML APIs negotiated it as the request
 * arrived). A request that allows none is answered 406 here, its problem in JSON.
 */
export function acceptable(m: Mount, request: FastifyRequest, reply: FastifyReply): boolean {
  const format = m.formats.length > 1 ? formatOfRequest(request) : negotiate(request.headers.accept, m.formats);
  if (format !== null) return true;
  setAnswerFormat(request, 'json');
  send(reply, {
    type: 'about:blank',
    title: 'Not Acceptable',
    status: 406,
    detail: `This API answers ${mediaTypesOf(m.formats)}, which the Accept header does not allow.`,
    code: 'not_acceptable',
  });
  return false;
}

/** The hook of an API with XML: each request's answer format, from its `Accept`. */
export function negotiateFormat(m: Mount, request: FastifyRequest): void {
  const accept = request.headers.accept;
  const format = negotiate(accept, m.formats);
  setAnswerFormat(request, format, format === 'xml' ? xmlMediaType(accept) : 'application/xml');
}
