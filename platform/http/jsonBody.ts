import express, { type RequestHandler } from 'express';

/** Deepest nesting of arrays and objects a JSON request body may have (SPEC-style limit; the schemas need < 10). */
export const MAX_JSON_DEPTH = 64;

/** The body-parser error type of a body nested deeper than MAX_JSON_DEPTH (mapped to 400 JSON_TOO_DEEP). */
export const JSON_TOO_DEEP_TYPE = 'entity.too.deep';

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The nesting depth of the JSON text in `bytes` (UTF-8), stopping as soon as it passes `limit`: one pass over the
 * bytes, skipping string contents, so a deeply nested body is refused before `JSON.parse` builds it. Multi-byte
 * UTF-8 sequences never contain these ASCII bytes.
 */
export function exceedsJsonDepth(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * `express.json` with the body size limit and the nesting cap: a body nested deeper than `maxDepth` (default
 * MAX_JSON_DEPTH) fails with type `entity.too.deep` before it is parsed (400 JSON_TOO_DEEP, platform/http/problem.ts).
 */
export function jsonBody(limitBytes: number, maxDepth = MAX_JSON_DEPTH): RequestHandler {
  return express.json({
    limit: limitBytes,
    verify: (_req, _res, buffer, encoding) => {
      if (encoding.toLowerCase().replace('-', '') !== 'utf8') return;
      if (exceedsJsonDepth(buffer, maxDepth)) {
        throw Object.assign(new Error(`JSON nested deeper than ${maxDepth} levels`), {
          type: JSON_TOO_DEEP_TYPE,
        });
      }
    },
  });
}
