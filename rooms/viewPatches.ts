import { type Client, ClientState, Protocol, type Room } from '@colyseus/core';
import {
  $changes,
  $childType,
  $getByIndex,
  type ChangeTree,
  MapSchema,
  type StateView,
} from '@colyseus/schema';

/** The parts of Colyseus's `SchemaSerializer` a filtered patch uses (its fields are public in the JavaScript). */
interface FilteredSerializer {
  hasFilters: boolean;
  needFullEncode: boolean;
  encodedViews?: Map<StateView, Uint8Array>;
  encoder: {
    hasChanges: boolean;
    sharedBuffer: Uint8Array;
    root: ChangedTrees;
    encode(it: { offset: number }): Uint8Array;
    encodeView(view: StateView, sharedOffset: number, it: { offset: number }): Uint8Array;
    discardChanges(): void;
  };
  applyPatches(clients: Client[], state: unknown, timing?: unknown): boolean;
}

/** The encoder's `Root`: the list of the trees that changed since the last patch, and the registered streams. */
interface ChangedTrees {
  changes: { next?: ChangeNode };
  streamTrees: { size: number };
}
interface ChangeNode {
  changeTree: ChangeTree;
  next?: ChangeNode;
}

/**
 * Makes a room's state patches skip the clients that have nothing to receive. With view-tagged state (every
 * player, creature and item is seen from its own room only: rooms/visibility.ts), Colyseus still sends every client
 * a frame whenever anything in the room's state changed, a bare one-byte patch for those who see none of it: in a
 * crowded area that is one socket write per client per tick. This sends a client its patch only when it carries
 * something (a shared change or one its view sees), and when no shared field changed it does not even encode the
 * views that can see none of the changed things (`viewsThatMaySee`): in an area of 333 players, most ticks change
 * things in a few rooms only. Anything else (no view filters, timed rooms) goes to Colyseus's own `applyPatches`
 * unchanged. Call it after the room's state is set.
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
    // With no shared change, a view that can see none of the changed things and has nothing of its own pending
    // (things added to it or taken out) would encode to the one-byte header, which is not sent.
    const maySee = shared.length > 1 ? undefined : viewsThatMaySee(encoder.root);
    const encoded = (serializer.encodedViews ??= new Map());
    for (let i = clients.length - 1; i >= 0; i -= 1) {
      const client = clients[i];
      if (client.state !== ClientState.JOINED) continue;
      const view = client.view;
      if (view && maySee && view.changes.size === 0 && !mayInclude(maySee, view)) continue;
      let body: Uint8Array | undefined = view ? encoded.get(view) : shared;
      if (body === undefined && view) {
        body = encoder.encodeView(view, sharedOffset, it);
        encoded.set(view, body);
      }
      // One byte is the patch header alone: nothing this client sees changed.
      if (body !== undefined && body.length > 1) client.raw(body);
    }
    encoded.clear();
    encoder.discardChanges();
    return true;
  };
}

/** Every view: what `viewsThatMaySee` answers when it cannot tell. */
const EVERY_VIEW = 'every view';
type ViewBits = number[] | typeof EVERY_VIEW;

/**
 * The views that may see something of the changes waiting to be encoded, as a bitmap by view id (Colyseus keeps
 * each tree's viewers as such a bitmap, `ChangeTree.visibleViews`), or `EVERY_VIEW`. It answers for at least every
 * view `Encoder.encodeView` would write something for, never fewer: a view passes a changed tree only if
 * `StateView.isChangeTreeVisible` says so (its own bit, or its parent's when the tree shares its parent's
 * visibility), and a change to an entry of a map of schema things only if the entry (or, deleted, its last value)
 * is visible to it. Anything else (a stream, a cleared collection, an entry it cannot find) counts as every view.
 */
export function viewsThatMaySee(root: ChangedTrees): ViewBits {
  if (root.streamTrees.size > 0) return EVERY_VIEW;
  const bits: number[] = [];
  for (let node = root.changes.next; node; node = node.next) {
    const tree = node.changeTree;
    if (!tree.has() || !tree.hasFilteredFields) continue;
    const ref = tree.ref as unknown as Record<symbol, unknown>;
    const entries = tree.ref instanceof MapSchema && typeof ref[$childType] !== 'string';
    if (!entries) {
      if (!addViewers(bits, tree)) return EVERY_VIEW;
      continue;
    }
    let every = false;
    tree.forEach((index) => {
      if (every) return;
      const entry = entryAt(tree, index);
      every = entry === undefined || !addViewers(bits, entry);
    });
    if (every) return EVERY_VIEW;
  }
  return bits;
}

/** The change tree of a map's entry at `index`, or of the value it held if it was deleted since the last patch. */
function entryAt(map: ChangeTree, index: number): ChangeTree | undefined {
  if (index < 0) return undefined;
  const ref = map.ref as unknown as {
    [$getByIndex](index: number): unknown;
    journal?: { snapshotAt(index: number): unknown };
  };
  const value = (ref[$getByIndex](index) ?? ref.journal?.snapshotAt(index)) as
    { [$changes]?: ChangeTree } | undefined;
  return value?.[$changes];
}

/** Adds the views that may see `tree` to `bits`; false when that cannot be told (count every view). */
function addViewers(bits: number[], tree: ChangeTree): boolean {
  or(bits, tree.visibleViews);
  if (!tree.isVisibilitySharedWithParent) return true;
  const parent = tree.parent as { [$changes]?: ChangeTree } | undefined;
  if (!parent?.[$changes]) return false;
  or(bits, parent[$changes].visibleViews);
  for (let extra = tree.extraParents; extra; extra = extra.next) {
    const other = (extra.ref as { [$changes]?: ChangeTree })[$changes];
    if (!other) return false;
    or(bits, other.visibleViews);
  }
  return true;
}

function or(into: number[], from: readonly number[] | undefined): void {
  if (!from) return;
  for (let i = 0; i < from.length; i += 1) into[i] = (into[i] ?? 0) | from[i];
}

/** Whether `view`'s bit is set in `bits` (a view without an id yet counts as included). */
function mayInclude(bits: ViewBits, view: StateView): boolean {
  if (bits === EVERY_VIEW || view.id < 0) return true;
  const word = bits[view.id >> 5] ?? 0;
  return (word & (1 << (view.id & 31))) !== 0;
}
