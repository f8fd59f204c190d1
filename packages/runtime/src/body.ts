/**
 * How request bodies are read: JSON in UTF-8 only (a declared `charset` other than UTF-8 answers 415), an
 * empty body is no body (a DELETE sent with `Content-Type: application/json` and nothing else is fine;
 * a create without a body fails validation with 400), and prototype poisoning is refused as Fastify's own
 * parser refuses it. An API with XML also reads `application/xml` and `text/xml` (`xml-read.ts`), and one with
 * file fields `multipart/form-data` (read part by part by the route, `file-upload.ts`). Any other content type
 * answers 415.
 */
import type { FastifyInstance } from 'fastify';
import { readXml } from './xml-read.js';

/** The media type parameters of a Content-Type value, lower-cased names. */
function charsetOf(contentType: string): string | null {
  for (const part of contentType.split(';').slice(1)) {
    const [name, value] = part.split('=');
    if (name?.trim().toLowerCase() === 'charset') return (value ?? '').trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return null;
}

/** An error Fastify's error handler reads as a 415 (`answerError` words the problem). */
class UnsupportedCharset extends Error {
  readonly code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
  readonly statusCode = 415;
}

const BLANK = /^\s*$/;

/** Replaces the JSON parser of `scope` and removes the text parser. */
export function useJsonBodies(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  // Only JSON bodies: any other type answers 415 rather than reaching validation as text.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const type = request.headers['content-type'];
    const charset = type === 'application/json' ? null : charsetOf(String(type ?? ''));
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') return done(new UnsupportedCharset('JSON is read as UTF-8 only'), undefined);
    const text = String(body);
    if (BLANK.test(text)) return done(null, undefined);
    return parseJson(request, text, done);
  });
}

/** Adds the XML parser (UTF-8 only, within the route's `bodyLimit`): the body becomes the document's root element. */
export function useXmlBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(['application/xml', 'text/xml'], { parseAs: 'string' }, (request, body, done) => {
    const charset = charsetOf(String(request.headers['content-type'] ?? ''));
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') return done(new UnsupportedCharset('XML is read as UTF-8 only'), undefined);
    const text = String(body);
    if (BLANK.test(text)) return done(null, undefined);
    try {
      return done(null, readXml(text));
    } catch (error) {
      return done(error as Error, undefined);
    }
  });
}
