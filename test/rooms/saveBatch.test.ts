import type { PlayerSession } from '../../rooms/eventDelivery';
import { applyOutsideChanges } from '../../rooms/outsideChanges';
import {
  type CharacterField,
  type CharacterRecord,
  type CharacterSync,
  InMemoryPlayerStore,
} from '../../rooms/persistence';
import { playerFromRecord } from '../../rooms/playerRecords';
import { SaveBatch } from '../../rooms/saveBatch';
import { type GameServer, joinArea, startGameServer } from '../helpers/gameServer';

/** A store that writes batches and records each call; `hold()` keeps the next writes waiting until released. */
class BatchStore extends InMemoryPlayerStore {
  readonly calls: string[][] = [];
  /** Per call, the fields each record was saved with (`all` for a whole record). */
  readonly changed: string[][] = [];
  failFor = new Set<string>();
  private gate?: Promise<void>;
  private open?: () => void;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  async saveMany(
    records: CharacterRecord[],
    changed?: ReadonlyArray<readonly CharacterField[] | undefined>,
  ): Promise<Array<Error | undefined>> {
    this.calls.push(records.map((record) => `${record.userId}:${record.health}`));
    this.changed.push(records.map((_, i) => changed?.[i]?.join(',') ?? 'all'));
    await this.gate;
    return Promise.all(
      records.map(async (record) => {
        if (this.failFor.has(record.userId)) return new Error(`cannot save ${record.userId}`);
        await this.save(record);
        return undefined;
      }),
    );
  }
}

function sessionOf(userId: string, health = 30): PlayerSession {
  const { state, journal } = playerFromRecord({
    userId,
    name: userId,
    roomRef: 'village:square',
    health,
    maxHealth: 30,
    level: 1,
    xp: 0,
    currencies: { soft: 10, hard: 0 },
    inventory: {},
    equipment: {},
    skills: {},
    quests: {},
    relations: {},
    companion: null,
    visited: [],
    asked: [],
    pendingCompanion: null,
    group: null,
    updatedAt: 0,
  });
  const session = { identity: { userId, name: userId }, state, journal, clients: new Set(), remote: false };
  return { ...session, outbox: [], lastRemoteAt: 0, inbox: [], saving: Promise.resolve() } as PlayerSession;
}

describe('SaveBatch: group commit of character saves', () => {
  it('writes the saves asked for in one turn in one call, each resolving only once written', async () => {
    const store = new BatchStore();
    const batch = new SaveBatch(store, () => 1);
    const [ann, bob, cid] = ['ann', 'bob', 'cid'].map((id) => sessionOf(id));
    let annDurable = false;
    const saved = [ann, bob, cid].map((session) => batch.persist(session));
    void saved[0].then(async () => (annDurable = (await store.load('ann')) !== null));
    await Promise.all(saved);
    expect(store.calls).toEqual([['ann:30', 'bob:30', 'cid:30']]);
    expect(annDurable).toBe(true);
    expect(ann.saved).toBeDefined();
  });

  it('lets a later save join one still waiting to be written, with the latest state', async () => {
    const store = new BatchStore();
    const batch = new SaveBatch(store, () => 1);
    const ann = sessionOf('ann');
    const bob = sessionOf('bob');
    store.hold();
    const first = batch.persist(bob);
    while (store.calls.length === 0) await new Promise((resolve) => setImmediate(resolve)); // bob's batch is held
    const one = batch.persist(ann);
    ann.state.health = 20;
    const two = batch.persist(ann);
    ann.state.health = 12;
    const three = batch.persist(ann);
    expect(two).toBe(one);
    expect(three).toBe(one);
    store.release();
    await Promise.all([first, one, two, three]);
    expect(store.calls).toEqual([['bob:30'], ['ann:12']]);
    expect((await store.load('ann'))?.health).toBe(12);
  });

  it("keeps a player's saves in order behind outside work queued between them", async () => {
    const store = new BatchStore();
    const batch = new SaveBatch(store, () => 1);
    const ann = sessionOf('ann');
    const order: string[] = [];
    const first = batch.persist(ann).then(() => order.push('save 1'));
    // Outside work (rooms/outsideChanges.ts afterSaves) runs after the first save and before the next.
    ann.saving = ann.saving.then(() => {
      order.push('outside');
      ann.state.health = 5;
    });
    const second = batch.persist(ann).then(() => order.push('save 2'));
    await Promise.all([first, second]);
    expect(order).toEqual(['save 1', 'outside', 'save 2']);
    expect(store.calls).toEqual([['ann:30'], ['ann:5']]);
  });

  it('fails only the saves the store could not write, and drain waits for every save asked for', async () => {
    const store = new BatchStore();
    store.failFor.add('bob');
    const batch = new SaveBatch(store, () => 1);
    const ann = sessionOf('ann');
    const bob = sessionOf('bob');
    store.hold();
    const results = Promise.allSettled([batch.persist(ann), batch.persist(bob)]);
    let drained = false;
    const draining = batch.drain().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(drained).toBe(false);
    store.release();
    await draining;
    expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(bob.saved).toBeUndefined();
  });

  it('writes only the fields changed since the last durable save, and nothing for a player with no change', async () => {
    const store = new BatchStore();
    const batch = new SaveBatch(store, () => 1);
    const ann = sessionOf('ann');
    await batch.persist(ann);
    ann.state.roomRef = 'village:market';
    ann.journal.visited.add('village:market');
    await batch.persist(ann);
    await batch.persist(ann);
    ann.state.health = 12;
    await batch.persist(ann);
    expect(store.changed).toEqual([['all'], ['roomRef,visited'], ['health']]);
    expect(await store.load('ann')).toMatchObject({ roomRef: 'village:market', health: 12 });
  });

  it('writes the whole record after a failed save (what the store holds is then unknown)', async () => {
    const store = new BatchStore();
    const batch = new SaveBatch(store, () => 1);
    const bob = sessionOf('bob');
    await batch.persist(bob);
    store.failFor.add('bob');
    bob.state.health = 20;
    await expect(batch.persist(bob)).rejects.toThrow('cannot save bob');
    store.failFor.delete('bob');
    await batch.persist(bob);
    expect(store.changed).toEqual([['all'], ['health'], ['all']]);
  });

  it('writes the coins after the platform moved their sync base, even when they are back at the saved figure', async () => {
    const store = new BatchStore();
    const batch = new SaveBatch(store, () => 1);
    const ann = sessionOf('ann');
    await batch.persist(ann);
    const rebased: number[] = [];
    const sync: CharacterSync = {
      unseenItems: async () => [],
      takeLive: async () => true,
      coinView: async () => ({ balance: 15, base: 10, hard: 0 }),
      rebaseCoins: async (_userId, _base, newBase) => void rebased.push(newBase),
    };
    // 5 coins came from outside (the base moves to 15), then the player spends 5: back at the saved 10, but the
    // next save must still carry the coins, or the 5 spent would never be posted to the account.
    await applyOutsideChanges(ann, sync);
    ann.state.soft -= 5;
    await batch.persist(ann);
    expect(rebased).toEqual([15]);
    expect(store.changed).toEqual([['all'], ['currencies']]);
  });

  it('saves one record at a time through a store without saveMany', async () => {
    const store = new InMemoryPlayerStore();
    const batch = new SaveBatch(store, () => 1);
    await Promise.all(['ann', 'bob'].map((id) => batch.persist(sessionOf(id))));
    expect(store.saves).toBe(2);
  });
});

/** A store whose saves take a while, as a database's do under load. */
class SlowStore extends InMemoryPlayerStore {
  override async save(record: CharacterRecord): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await super.save(record);
  }
}

describe('a clean shutdown writes every save asked for', () => {
  let game: GameServer | undefined;
  afterEach(() => game?.shutdown());

  it('waits for the save of a player who left just before the rooms were disposed', async () => {
    const store = new SlowStore();
    game = await startGameServer({ store, durableActions: false, saveEveryMs: 60_000 });
    const { room } = await joinArea(game, 'ann');
    await room.request('take', { item: 'stick' });
    await room.leave();
    const stopping = game;
    game = undefined;
    await stopping.shutdown();
    expect((await store.load('ann'))?.inventory).toEqual({ 'village:stick': 2 });
  });
});
