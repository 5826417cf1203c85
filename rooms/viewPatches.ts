import { type Client, ClientState, Protocol, type Room } from '@colyseus/core';
import type { StateView } from '@colyseus/schema';

/** The parts of Colyseus's `SchemaSerializer` a filtered patch uses (its fields are public in the JavaScript). */
interface FilteredSerializer {
  hasFilters: boolean;
  needFullEncode: boolean;
  encodedViews?: Map<StateView, Uint8Array>;
  encoder: {
    hasChanges: boolean;
    sharedBuffer: Uint8Array;
    encode(it: { offset: number }): Uint8Array;
    encodeView(view: StateView, sharedOffset: number, it: { offset: number }): Uint8Array;
    discardChanges(): void;
  };
  applyPatches(clients: Client[], state: unknown, timing?: unknown): boolean;
}

/**
 * Makes a room's state patches skip the clients that have nothing to receive. With view-tagged state (every
 * player, creature and item is seen from its own room only: rooms/visibility.ts), Colyseus still sends every client
 * a frame whenever anything in the room's state changed, a bare one-byte patch for those who see none of it: in a
 * crowded area that is one socket write per client per tick. This sends a client its patch only when it carries
 * something (a shared change or one its view sees). Anything else (no view filters, timed rooms) goes to Colyseus's
 * own `applyPatches` unchanged. Call it after the room's state is set.
 */
export function sendOnlyNonEmptyPatches(room: Room): void {
  const serializer = (room as unknown as { _serializer: FilteredSerializer })._serializer;
  const own = serializer.applyPatches.bind(serializer);
  serializer.applyPatches = (clients, state, timing) => {
    const { encoder } = serializer;
    if (!serializer.hasFilters || timing !== undefined || clients.length === 0 || !encoder.hasChanges)
      return own(clients, state, timing);
    serializer.needFullEncode = true;
    const it = { offset: 1 };
    encoder.sharedBuffer[0] = Protocol.ROOM_STATE_PATCH;
    const shared = encoder.encode(it);
    const sharedOffset = it.offset;
    const encoded = (serializer.encodedViews ??= new Map());
    for (let i = clients.length - 1; i >= 0; i -= 1) {
      const client = clients[i];
      if (client.state !== ClientState.JOINED) continue;
      let body: Uint8Array | undefined = client.view ? encoded.get(client.view) : shared;
      if (body === undefined && client.view) {
        body = encoder.encodeView(client.view, sharedOffset, it);
        encoded.set(client.view, body);
      }
      // One byte is the patch header alone: nothing this client sees changed.
      if (body !== undefined && body.length > 1) client.raw(body);
    }
    encoded.clear();
    encoder.discardChanges();
    return true;
  };
}
