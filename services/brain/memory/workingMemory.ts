import type { Redis } from 'ioredis';
import type { MemoryRecord } from './memoryService';

/** A working-memory turn as stored: the record and its token count. */
export interface WorkingTurn {
  record: MemoryRecord;
  tokens: number;
}

/**
 * The working tier: each (subject, session) conversation in order with its running token total. In Redis when
 * configured (shared by every process, kept `ttlSeconds` after the last turn), in process otherwise.
 */
export interface WorkingMemoryStore {
  append(turn: WorkingTurn): Promise<number>;
  /** Removes and answers the oldest turn of a session. */
  shift(subject: string, sessionId: string): Promise<WorkingTurn | null>;
  list(subject: string, sessionId: string): Promise<MemoryRecord[]>;
  /** Removes a session; answers the ids it held. */
  clear(subject: string, sessionId: string): Promise<string[]>;
  /** Removes one turn by id from any session of the subject; true when found. */
  remove(subject: string, id: string): Promise<boolean>;
  sessions(subject: string): Promise<string[]>;
}

const revive = (json: string): WorkingTurn => {
  const turn = JSON.parse(json) as WorkingTurn;
  const r = turn.record;
  return {
    tokens: turn.tokens,
    record: {
      ...r,
      occurred_at: new Date(r.occurred_at),
      created_at: new Date(r.created_at),
      last_seen: new Date(r.last_seen),
    },
  };
};

/** Working memory in Redis: a list per session, a token counter beside it and a set of the subject's sessions. */
export class RedisWorkingMemory implements WorkingMemoryStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  private keys(subject: string, sessionId: string) {
    const base = `${this.prefix}${subject}\u0000${sessionId}`;
    return { list: `${base}:turns`, tokens: `${base}:tokens`, sessions: `${this.prefix}${subject}:sessions` };
  }

  async append(turn: WorkingTurn): Promise<number> {
    const k = this.keys(turn.record.subject, turn.record.session_id ?? '');
    const results = await this.redis
      .multi()
      .rpush(k.list, JSON.stringify(turn))
      .incrby(k.tokens, turn.tokens)
      .sadd(k.sessions, turn.record.session_id ?? '')
      .expire(k.list, this.ttlSeconds)
      .expire(k.tokens, this.ttlSeconds)
      .expire(k.sessions, this.ttlSeconds)
      .exec();
    return Number(results?.[1]?.[1] ?? 0);
  }

  async shift(subject: string, sessionId: string): Promise<WorkingTurn | null> {
    const k = this.keys(subject, sessionId);
    const json = await this.redis.lpop(k.list);
    if (!json) return null;
    const turn = revive(json);
    await this.redis.decrby(k.tokens, turn.tokens);
    return turn;
  }

  async list(subject: string, sessionId: string): Promise<MemoryRecord[]> {
    const items = await this.redis.lrange(this.keys(subject, sessionId).list, 0, -1);
    return items.map((json) => revive(json).record);
  }

  async clear(subject: string, sessionId: string): Promise<string[]> {
    const k = this.keys(subject, sessionId);
    const ids = (await this.list(subject, sessionId)).map((record) => record.id);
    await this.redis.multi().del(k.list, k.tokens).srem(k.sessions, sessionId).exec();
    return ids;
  }

  async remove(subject: string, id: string): Promise<boolean> {
    for (const sessionId of await this.sessions(subject)) {
      const k = this.keys(subject, sessionId);
      for (const json of await this.redis.lrange(k.list, 0, -1)) {
        const turn = revive(json);
        if (turn.record.id !== id) continue;
        if ((await this.redis.lrem(k.list, 1, json)) > 0) await this.redis.decrby(k.tokens, turn.tokens);
        return true;
      }
    }
    return false;
  }

  sessions(subject: string): Promise<string[]> {
    return this.redis.smembers(`${this.prefix}${subject}:sessions`);
  }
}

/** Working memory in this process (no Redis configured): lost on restart, not shared between processes. */
export class InProcessWorkingMemory implements WorkingMemoryStore {
  private readonly bySubject = new Map<string, Map<string, { turns: WorkingTurn[]; tokens: number }>>();

  private session(subject: string, sessionId: string, create: boolean) {
    let sessions = this.bySubject.get(subject);
    if (!sessions && create) this.bySubject.set(subject, (sessions = new Map()));
    let session = sessions?.get(sessionId);
    if (!session && create) sessions!.set(sessionId, (session = { turns: [], tokens: 0 }));
    return session;
  }

  async append(turn: WorkingTurn): Promise<number> {
    const session = this.session(turn.record.subject, turn.record.session_id ?? '', true)!;
    session.turns.push(turn);
    session.tokens += turn.tokens;
    return session.tokens;
  }

  async shift(subject: string, sessionId: string): Promise<WorkingTurn | null> {
    const session = this.session(subject, sessionId, false);
    const turn = session?.turns.shift();
    if (!session || !turn) return null;
    session.tokens -= turn.tokens;
    return turn;
  }

  async list(subject: string, sessionId: string): Promise<MemoryRecord[]> {
    return (this.session(subject, sessionId, false)?.turns ?? []).map((turn) => turn.record);
  }

  async clear(subject: string, sessionId: string): Promise<string[]> {
    const ids = (await this.list(subject, sessionId)).map((record) => record.id);
    this.bySubject.get(subject)?.delete(sessionId);
    return ids;
  }

  async remove(subject: string, id: string): Promise<boolean> {
    for (const session of this.bySubject.get(subject)?.values() ?? []) {
      const at = session.turns.findIndex((turn) => turn.record.id === id);
      if (at === -1) continue;
      session.tokens -= session.turns[at].tokens;
      session.turns.splice(at, 1);
      return true;
    }
    return false;
  }

  async sessions(subject: string): Promise<string[]> {
    return [...(this.bySubject.get(subject)?.keys() ?? [])];
  }
}
