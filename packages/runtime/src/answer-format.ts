/**
 * The format a request's answers are written in, kept on the request: an API with XML negotiates it as each
 * request arrives (`negotiateFormat` in representation.ts), and whatever answers (a resource, a page, a problem)
 * reads it here. A request nothing negotiated (every request of a JSON-only API) is answered in JSON. It is a
 * module of its own, apart from the request state, so that `problems.ts` can answer in the negotiated format
 * without importing what imports it.
 */
import type { FastifyRequest } from 'fastify';
import type { Format } from './negotiate.js';

/** The format of one request's answers, and the XML media type they carry when it is XML. */
export interface AnswerFormat {
  readonly format: Format | null;
  readonly xmlType: 'application/xml' | 'text/xml';
}

/** The request decoration holding the format (registered by `mountApi`). */
export const ANSWER_FORMAT = Symbol('restgen.answer-format');
type WithFormat = FastifyRequest & { [ANSWER_FORMAT]?: AnswerFormat | null };

const JSON_ANSWERS: AnswerFormat = { format: 'json', xmlType: 'application/xml' };

/** The format of a request's answers (null: its `Accept` allows none the API writes); JSON where nothing negotiated one. */
export const formatOfRequest = (request: FastifyRequest): Format | null => ((request as WithFormat)[ANSWER_FORMAT] ?? JSON_ANSWERS).format;

/** The XML media type of a request's XML answers (`text/xml` when the client prefers it). */
export const xmlTypeOf = (request: FastifyRequest): AnswerFormat['xmlType'] => ((request as WithFormat)[ANSWER_FORMAT] ?? JSON_ANSWERS).xmlType;

/** Sets the format of a request's answers. */
export function setAnswerFormat(request: FastifyRequest, format: Format | null, xmlType: AnswerFormat['xmlType'] = 'application/xml'): void {
  (request as WithFormat)[ANSWER_FORMAT] = { format, xmlType };
}
