/**
 * One client connection: reassembles wire messages from the TCP stream, runs each command in arrival order and
 * writes the reply (none for OP_MSG moreToCome). A malformed frame closes the connection, as mongod does.
 */
import type { Socket } from 'node:net';
import type { Document } from 'bson';
import { dispatchCommand } from '../commands/dispatcher';
import type { EngineState } from '../commands/context';
import { asMongoError } from '../errors';
import { decodeRequest, encodeReply, HEADER_SIZE, OP_MSG, type WireRequest } from './codec';

/** Largest message the engine accepts (MongoDB's maxMessageSizeBytes). */
const MAX_MESSAGE_BYTES = 48_000_000;

/** Serves `socket` until it closes. */
export function serveConnection(socket: Socket, engine: EngineState, connectionId: number): void {
  const chunks: Buffer[] = [];
  let buffered = 0;

  const take = (length: number): Buffer => {
    const joined = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, buffered);
    chunks.length = 0;
    const message = joined.subarray(0, length);
    if (joined.length > length) chunks.push(joined.subarray(length));
    buffered -= length;
    return message;
  };

  const peekLength = (): number => {
    if (chunks[0].length < 4) {
      const joined = Buffer.concat(chunks, buffered);
      chunks.length = 0;
      chunks.push(joined);
    }
    return chunks[0].readInt32LE(0);
  };

  socket.setNoDelay(true);
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (buffered >= 4) {
      const length = peekLength();
      if (length < HEADER_SIZE || length > MAX_MESSAGE_BYTES) {
        engine.logger.warn({ connectionId, length }, 'invalid wire message length; closing connection');
        socket.destroy();
        return;
      }
      if (buffered < length) return;
      const reply = handleMessage(take(length), engine, connectionId);
      if (reply) socket.write(reply);
    }
  });
  socket.on('error', (error) => engine.logger.debug({ err: error, connectionId }, 'client connection error'));
}

function handleMessage(message: Buffer, engine: EngineState, connectionId: number): Buffer | undefined {
  let request: WireRequest;
  try {
    request = decodeRequest(message);
  } catch (error) {
    const fallback: WireRequest = {
      opCode: OP_MSG,
      requestId: message.readInt32LE(4),
      command: {},
      db: 'admin',
      moreToCome: false,
    };
    return encodeReply(fallback, asMongoError(error).toReply());
  }
  const reply: Document = dispatchCommand({ db: request.db, command: request.command, engine, connectionId });
  if (request.moreToCome) return undefined;
  return encodeReply(request, reply);
}
