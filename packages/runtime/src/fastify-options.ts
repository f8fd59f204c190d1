/**
 * Options for the Fastify instance the API is mounted on, so that the errors Fastify answers before any
 * route runs also follow the problem+json contract: a malformed URL (`%zz`) answers 400, an over-long path
 * segment 404 (no resource has such an id), and what the HTTP parser rejects (oversized headers 431, an
 * unparseable request or method 400) a problem+json body. Pass them when creating the instance:
 * `Fastify({ ...fastifyOptions, logger: true })`; `registerXApi` cannot change them afterwards.
 */
import type { FastifyServerOptions } from 'fastify';
import type { Socket } from 'node:net';
import { problem, type Problem } from './problems.js';

/** The problem of a framework error (bad URL, long parameter), by its code. */
export function frameworkProblem(code: string): Problem {
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return problem(404, 'not_found', 'No resource has this id.');
  if (code === 'FST_ERR_BAD_URL') return problem(400, 'bad_request', 'The URL is not valid percent-encoding.');
  return problem(400, 'bad_request', 'The request is malformed.');
}

const PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
};

/** The problem of an error the HTTP parser raised, by its code. */
export function clientProblem(code: string): Problem {
  if (code === 'HPE_HEADER_OVERFLOW') return problem(431, 'header_fields_too_large', "The request's header fields are too large.");
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problem(408, 'request_timeout', 'The request took too long to arrive.');
  return problem(400, 'bad_request', 'The request is not valid HTTP/1.1.');
}

/** Writes a problem+json answer on a socket the HTTP parser gave up on, then closes it. */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const body = clientProblem(error.code ?? '');
  const text = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${body.status} ${PHRASES[body.status] ?? 'Bad Request'}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
}

/**
 * Fastify server options that make Fastify's own early errors problem+json:
 * `Fastify({ ...fastifyOptions })`.
 */
export const fastifyOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors: (error, _request, reply) => {
    const body = frameworkProblem(error.code);
    // The reply's generics are the instance's; its raw response takes the problem as is.
    const text = JSON.stringify(body);
    reply.raw.writeHead(body.status, {
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(text),
    });
    reply.raw.end(text);
  },
  clientErrorHandler,
};
