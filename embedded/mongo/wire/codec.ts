/**
 * MongoDB wire protocol framing: decodes OP_MSG and legacy OP_QUERY requests into a command document, and
 * encodes OP_MSG / OP_REPLY replies. See https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/.
 */
import { deserialize, serialize, type Document } from 'bson';
import { mongoError } from '../errors';
import { rememberWireBytes } from './documentBytes';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

/** Bytes in the standard message header (messageLength, requestID, responseTo, opCode). */
export const HEADER_SIZE = 16;

const MSG_CHECKSUM_PRESENT = 1 << 0;
const MSG_MORE_TO_COME = 1 << 1;

/** How the engine deserializes client documents: numbers and longs become JS numbers so mingo can compute. */
export const bsonReadOptions = { promoteLongs: true, promoteValues: true, bsonRegExp: false } as const;

/** A decoded client request. */
export interface WireRequest {
  opCode: typeof OP_MSG | typeof OP_QUERY;
  requestId: number;
  /** The command document with OP_MSG document sequences folded in under their identifiers. */
  command: Document;
  /** Target database: `$db` for OP_MSG, the namespace prefix for OP_QUERY. */
  db: string;
  /** OP_MSG moreToCome: the client expects no reply (unacknowledged write). */
  moreToCome: boolean;
}

/** Reads the int32 total length at the start of a message. */
export function messageLength(buffer: Buffer, offset = 0): number {
  return buffer.readInt32LE(offset);
}

function readCString(buffer: Buffer, offset: number): [string, number] {
  const end = buffer.indexOf(0, offset);
  if (end < 0) throw mongoError('FailedToParse', 'unterminated C string in wire message');
  return [buffer.toString('utf8', offset, end), end + 1];
}

function readDocument(buffer: Buffer, offset: number): [Document, number] {
  const size = buffer.readInt32LE(offset);
  const document = deserialize(buffer.subarray(offset, offset + size), bsonReadOptions);
  return [document, offset + size];
}

/** Decodes one complete message (header included). Throws a ProtocolError-style error on unsupported opcodes. */
export function decodeRequest(message: Buffer): WireRequest {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return decodeOpMsg(message, requestId);
  if (opCode === OP_QUERY) return decodeOpQuery(message, requestId);
  throw mongoError('CommandNotSupported', `unsupported wire protocol opcode ${opCode}`);
}

function decodeOpMsg(message: Buffer, requestId: number): WireRequest {
  const flags = message.readUInt32LE(HEADER_SIZE);
  const end = flags & MSG_CHECKSUM_PRESENT ? message.length - 4 : message.length;
  let offset = HEADER_SIZE + 4;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  while (offset < end) {
    const kind = message[offset];
    offset += 1;
    if (kind === 0) {
      [body, offset] = readDocument(message, offset);
    } else if (kind === 1) {
      const sectionEnd = offset + message.readInt32LE(offset);
      const [identifier, sequenceStart] = readCString(message, offset + 4);
      let cursor = sequenceStart;
      const documents: Document[] = [];
      while (cursor < sectionEnd) {
        const start = cursor;
        let document: Document;
        [document, cursor] = readDocument(message, cursor);
        rememberWireBytes(document, message.subarray(start, cursor));
        documents.push(document);
      }
      sequences.push([identifier, documents]);
      offset = sectionEnd;
    } else {
      throw mongoError('FailedToParse', `unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw mongoError('FailedToParse', 'OP_MSG has no body section');
  for (const [identifier, documents] of sequences) body[identifier] = documents;
  const db = typeof body.$db === 'string' ? body.$db : 'admin';
  return { opCode: OP_MSG, requestId, command: body, db, moreToCome: (flags & MSG_MORE_TO_COME) !== 0 };
}

function decodeOpQuery(message: Buffer, requestId: number): WireRequest {
  const [namespace, afterName] = readCString(message, HEADER_SIZE + 4);
  const [query] = readDocument(message, afterName + 8);
  const dot = namespace.indexOf('.');
  const db = dot < 0 ? namespace : namespace.slice(0, dot);
  // Legacy drivers wrap the command as { $query: {...}, $readPreference: ... }.
  const command = query.$query && typeof query.$query === 'object' ? (query.$query as Document) : query;
  return { opCode: OP_QUERY, requestId, command, db, moreToCome: false };
}

let nextRequestId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.allocUnsafe(HEADER_SIZE);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

/** Encodes `reply` in the opcode family the request used (OP_MSG reply, or OP_REPLY for OP_QUERY). */
export function encodeReply(request: WireRequest, reply: Document): Buffer {
  const body = serialize(reply, { ignoreUndefined: true });
  if (request.opCode === OP_MSG) {
    const prefix = Buffer.alloc(5); // flagBits 0, section kind 0
    const length = HEADER_SIZE + prefix.length + body.length;
    return Buffer.concat([header(length, request.requestId, OP_MSG), prefix, body], length);
  }
  const fields = Buffer.alloc(20); // responseFlags 0, cursorID 0 (int64), startingFrom 0, numberReturned
  fields.writeInt32LE(1, 16);
  const length = HEADER_SIZE + fields.length + body.length;
  return Buffer.concat([header(length, request.requestId, OP_REPLY), fields, body], length);
}
