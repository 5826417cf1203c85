import { ManualClock } from '../../platform/clock';
import { type CharacterRecord, InMemoryPlayerStore } from '../../rooms/persistence';
import type { AreaState } from '../../rooms/state/AreaState';
import { type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';

/** An in-memory store that lets a test wait for the next save matching a predicate. */
class WatchedStore extends InMemoryPlayerStore {
  private waiters: Array<{ match: (r: CharacterRecord) => boolean; resolve: () => void }> = [];
  /** Every save, in order. */
  readonly saveLog: CharacterRecord[] = [];

  override async save(record: CharacterRecord): Promise<void> {
    this.saveLog.push(record);
    await super.save(record);
    this.waiters = this.waiters.filter((w) => (w.match(record) ? (w.resolve(), false) : true));
  }

  nextSave(match: (record: CharacterRecord) => boolean): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

describe('area room lifecycle: autosave, idle gateway players, untrusted join options', () => {
  let game: GameServer;
  afterEach(() => game.shutdown());

  it('saves every player on the autosave timer, without any action asking for it', async () => {
    const store = new WatchedStore();
    game = await startGameServer({ store, durableActions: false, saveEveryMs: 40 });
    const { room } = await joinArea(game, 'ann');
    const saved = store.nextSave((r) => r.userId === 'ann' && r.inventory['village:stick'] === 2);
    await room.request('take', { item: 'stick' });
    await saved;
    expect((await store.load('ann'))?.inventory).toEqual({ 'village:stick': 2 });
  });

  it('autosaves only the players whose record changed since their last save', async () => {
    const store = new WatchedStore();
    game = await startGameServer({ store, durableActions: false, saveEveryMs: 30 });
    // Watched before the join: on a loaded machine the join can take longer than one autosave interval.
    const firstSave = store.nextSave((r) => r.userId === 'ann');
    const { room } = await joinArea(game, 'ann');
    const saves = () => store.saveLog.filter((r) => r.userId === 'ann').length;
    const severalAutosaves = () => new Promise((resolve) => setTimeout(resolve, 200));
    // A new character is saved by the first autosave, then skipped while nothing changes.
    await firstSave;
    await severalAutosaves();
    const first = saves();
    expect(first).toBe(1);
    // Looking changes nothing; taking a stick does, and that is saved once.
    await room.request('look', {});
    await severalAutosaves();
    expect(saves()).toBe(first);
    const saved = store.nextSave((r) => r.userId === 'ann' && r.inventory['village:stick'] === 2);
    await room.request('take', { item: 'stick' });
    await saved;
    await severalAutosaves();
    expect(saves()).toBe(first + 1);
  });

  it('lets an idle gateway player go after remoteIdleMs, unless their channel touches them', async () => {
    const clock = new ManualClock();
    const store = new WatchedStore();
    game = await startGameServer({ store, clock, remoteIdleMs: 60_000 });
    const { room, log } = await joinArea(game, 'ann');
    await game.gateway.perform({ userId: 'bob', name: 'Bob' }, { action: 'take', item: 'stick', qty: 1 });
    game.tick();
    await log.waitFor((e) => e.text === 'Bob arrives.');
    // The arrival event goes out at once; the state patch that adds Bob follows at the patch rate.
    await waitForState(room, (state: AreaState) => state.players.has('bob'));

    clock.advance(59_000);
    await game.gateway.touch('bob');
    clock.advance(59_000);
    game.tick(10);
    expect(room.state.players.has('bob')).toBe(true);

    clock.advance(2_000);
    game.tick(5);
    await log.waitFor((e) => e.text === 'Bob leaves.');
    await waitForState(room, (state: AreaState) => !state.players.has('bob'));
    expect((await store.load('bob'))?.inventory).toEqual({ 'village:stick': 1 });
  });

  it('ignores room options a client sends when its join creates the room', async () => {
    const store = new InMemoryPlayerStore();
    game = await startGameServer({ store, tickMs: 10, realTicks: true });
    const client = game.client('ann');
    const room = await client.joinOrCreate('area_village', { tickMs: 100_000, durableActions: false });
    game.track(room);
    await waitForState(room, (state: AreaState) => state.tick > 0);
    const ticked = room.state.tick;
    await waitForState(room, (state: AreaState) => state.tick > ticked + 3);
    await room.request('take', { item: 'stick', qty: 1 });
    expect((await store.load('ann'))?.inventory).toEqual({ 'village:stick': 1 });
  });
});
