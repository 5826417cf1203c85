import type { Client } from '@colyseus/core';

/** The part of a Node socket that holds writes back: `cork()` buffers, the matching `uncork()` sends. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * The TCP socket under a client of the WebSocket transport (`ws`'s `WebSocket#_socket`), or undefined for a
 * transport without one (tests' fake clients, other transports). `ws` has no public accessor for it; it has
 * carried the socket under that name since its first releases and corks it itself around each frame.
 */
function socketOf(client: Client): Corkable | undefined {
  const socket = (client as { ref?: { _socket?: Partial<Corkable> } }).ref?._socket;
  return typeof socket?.cork === 'function' && typeof socket.uncork === 'function'
    ? (socket as Corkable)
    : undefined;
}

/**
 * Holds back the socket writes of `clients` until the returned function is called, so every WebSocket frame
 * sent to a client meanwhile leaves in ONE write (one `writev` system call) instead of one per frame. A tick
 * sends each client its batched events and its state patch this way; an action, the actor's events and the
 * reply. Corks nest (`ws` corks around each frame it sends), so the frames stay in order. Cheap to call: a
 * socket write costs about as much CPU as everything else an action does in a crowded room.
 */
export function holdWrites(clients: Iterable<Client>): () => void {
  const held: Corkable[] = [];
  for (const client of clients) {
    const socket = socketOf(client);
    if (!socket) continue;
    socket.cork();
    held.push(socket);
  }
  return () => {
    for (const socket of held) socket.uncork();
  };
}

/**
 * Holds back the writes of `clients` until the current turn of the event loop is done (its promise callbacks
 * included): what the actor's events and the request's reply send leaves as one write.
 */
export function holdWritesThisTurn(clients: Iterable<Client>): void {
  const release = holdWrites(clients);
  process.nextTick(release);
}
