/**
 * The JSON-RPC 2.0 envelope as clients send it (viem, wagmi, ethers, curl): `params` may be omitted (it is then no
 * parameters), requests may be batched in an array, and a request without `id` is a notification that gets no
 * reply. The dev chain's EDR provider wants a complete request, so each one is normalised here first.
 */

/** A request as the EVM provider takes it. */
export interface NormalisedRequest {
  jsonrpc: '2.0';
  id: string | number | null;
  method: string;
  params: unknown[] | Record<string, unknown>;
}

/** A reply (or `undefined` for a notification). */
export type JsonRpcResponse = Record<string, unknown>;

const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

function errorReply(id: unknown, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message } };
}

/** The request as the provider takes it, or a JSON-RPC error reply explaining what is wrong with it. */
function normalise(request: unknown): { request: NormalisedRequest } | { refusal: JsonRpcResponse } {
  const refuse = (id: unknown, message: string) => ({ refusal: errorReply(id, INVALID_REQUEST, message) });
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return refuse(null, 'Invalid request: expected an object');
  const { id, method, params, jsonrpc } = request as Record<string, unknown>;
  if (jsonrpc !== undefined && jsonrpc !== '2.0') return refuse(id, 'Invalid request: jsonrpc must be "2.0"');
  if (typeof method !== 'string') return refuse(id, 'Invalid request: method must be a string');
  if (params !== undefined && (typeof params !== 'object' || params === null))
    return refuse(id, 'Invalid request: params must be an array or an object');
  const validId = typeof id === 'string' || typeof id === 'number' || id === null ? id : null;
  const given = (params as NormalisedRequest['params'] | undefined) ?? [];
  return { request: { jsonrpc: '2.0', id: validId, method, params: given } };
}

/**
 * Answers one JSON-RPC request or notification with `call`. A notification (no `id` member) is executed and yields
 * `undefined`; a failure of `call` becomes an internal-error reply instead of failing a whole batch.
 */
async function answerOne(
  request: unknown,
  call: (request: NormalisedRequest) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse | undefined> {
  const normalised = normalise(request);
  if ('refusal' in normalised) return normalised.refusal;
  const isNotification = !Object.prototype.hasOwnProperty.call(request, 'id');
  const reply = await call(normalised.request).catch((error: unknown) =>
    errorReply(normalised.request.id, INTERNAL_ERROR, error instanceof Error ? error.message : String(error)),
  );
  return isNotification ? undefined : reply;
}

/**
 * Answers an HTTP body holding one request or a batch: the reply body, or `undefined` when nothing is owed (only
 * notifications). Malformed JSON and an empty batch are single error replies, as the specification says.
 */
export async function answerJsonRpc(
  body: string,
  call: (request: NormalisedRequest) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return errorReply(null, PARSE_ERROR, 'Parse error: the body is not JSON');
  }
  if (!Array.isArray(parsed)) return answerOne(parsed, call);
  if (parsed.length === 0) return errorReply(null, INVALID_REQUEST, 'Invalid request: empty batch');
  const replies = await Promise.all(parsed.map((one) => answerOne(one, call)));
  const owed = replies.filter((reply): reply is JsonRpcResponse => reply !== undefined);
  return owed.length === 0 ? undefined : owed;
}
