import { PlayerState } from './PlayerState';

/** Told when a watched player's `roomRef` changes, with the room they left and the one they are in now. */
export type RoomMoveListener = (from: string, to: string) => void;

const listeners = new WeakMap<PlayerState, RoomMoveListener>();

/*
 * `PlayerState.roomRef` is an accessor Colyseus's schema defines on the prototype (it records the change for the
 * patches). It is wrapped once here so whoever indexes players by room hears every move, whichever rule made it
 * (a walk, a flight, a respawn, a handoff), and the index can never miss one.
 */
const accessor = Object.getOwnPropertyDescriptor(PlayerState.prototype, 'roomRef');
if (!accessor?.get || !accessor.set)
  throw new Error('PlayerState.roomRef is not an accessor: the schema changed');
const { get, set } = accessor;
Object.defineProperty(PlayerState.prototype, 'roomRef', {
  ...accessor,
  set(this: PlayerState, value: string) {
    const from = get.call(this) as string;
    set.call(this, value);
    if (from !== value) listeners.get(this)?.(from, value);
  },
});

/** Calls `listener` whenever `player` changes rooms (replacing any listener it had). */
export function onRoomMove(player: PlayerState, listener: RoomMoveListener): void {
  listeners.set(player, listener);
}
