import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../../platform/clock';
import type {
  ForgetTarget,
  ListInput,
  MemoryRecord,
  MemoryService,
  RecallHit,
  RecallInput,
  RecallResult,
  RememberInput,
  RememberResult,
} from '../../services/brain/memory/memoryService';

const STOPWORDS = new Set(
  'a an and are as at be by did do does for from had has have i in is it me my of on or the to was we were what when where which who why with you your our us'.split(
    ' ',
  ),
);

/** Lowercase word stems of `text` without stop words (a crude suffix strip: "crystals" → "crystal"). */
export function termsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((word) => !STOPWORDS.has(word))
    .map((word) => (word.length > 4 ? word.replace(/(ing|ed|es|s)$/, '') : word));
}

/**
 * A small but real in-process MemoryService (the contract of services/brain/memory/memoryService.ts) for tests and
 * benches until issue 18's implementation is merged: memories per subject (never crossing subjects), tag filters,
 * lexical scoring (term overlap weighted by importance and a 7-day recency half-life), near-duplicate merging
 * (same kind, tags and normalised content) and cursor listing. Nothing persists: a restart forgets everything.
 */
export class InProcessMemoryService implements MemoryService {
  private readonly subjects = new Map<string, MemoryRecord[]>();
  private readonly terms = new WeakMap<MemoryRecord, Set<string>>();
  /** Near-duplicate lookup: subject, kind, tags and normalised content → the memory. */
  private readonly twins = new Map<string, MemoryRecord>();
  /** Memories by subject and tag, so a tag filter reads only its own memories. */
  private readonly tagged = new Map<string, MemoryRecord[]>();

  constructor(private readonly clock: Clock = systemClock) {}

  async remember(input: RememberInput): Promise<RememberResult> {
    const tier = input.tier ?? 'episodic';
    if (tier === 'working' && !input.session_id) throw new Error('working memories need a session_id');
    const now = new Date(this.clock.now());
    const tags = [...new Set(input.tags ?? [])].sort();
    const list = this.subjects.get(input.subject) ?? [];
    this.subjects.set(input.subject, list);
    const twinKey = [input.subject, input.kind ?? '', tags.join('|'), termsOf(input.content).join(' ')].join(
      '\n',
    );
    const twin = this.twins.get(twinKey);
    if (twin) {
      twin.seen_count += 1;
      twin.last_seen = now;
      return { memory: { ...twin }, merged: true };
    }
    const memory: MemoryRecord = {
      id: randomBytes(12).toString('hex'),
      subject: input.subject,
      tier,
      content: input.content,
      session_id: input.session_id ?? null,
      kind: input.kind ?? null,
      tags,
      importance: input.importance ?? 0.5,
      occurred_at: input.occurred_at ?? now,
      created_at: now,
      last_seen: now,
      seen_count: 1,
    };
    list.push(memory);
    this.terms.set(memory, new Set(termsOf(memory.content)));
    this.twins.set(twinKey, memory);
    for (const tag of tags) {
      const key = `${input.subject}\n${tag}`;
      const withTag = this.tagged.get(key) ?? [];
      withTag.push(memory);
      this.tagged.set(key, withTag);
    }
    return { memory: { ...memory }, merged: false };
  }

  async recall(input: RecallInput): Promise<RecallResult> {
    const now = this.clock.now();
    const query = termsOf(input.query);
    const hits: RecallHit[] = [];
    for (const memory of this.matching(input.subject, input.tags, input.tiers, input.as_of)) {
      const words = this.terms.get(memory)!;
      const overlap = query.filter((term) => words.has(term)).length;
      if (query.length > 0 && overlap === 0) continue;
      const ageSeconds = Math.max(0, (now - memory.occurred_at.getTime()) / 1000);
      const recency = Math.pow(0.5, ageSeconds / (7 * 24 * 3600));
      const lexical = query.length > 0 ? overlap / Math.sqrt(words.size || 1) : 1;
      hits.push({
        memory: { ...memory },
        score: lexical * (0.5 + memory.importance) * (0.5 + recency),
        age_seconds: ageSeconds,
      });
    }
    hits.sort((a, b) => b.score - a.score || b.memory.occurred_at.getTime() - a.memory.occurred_at.getTime());
    const working = input.session_id
      ? (this.subjects.get(input.subject) ?? []).filter(
          (m) => m.tier === 'working' && m.session_id === input.session_id,
        )
      : undefined;
    return { hits: hits.slice(0, input.limit ?? 10), ...(working ? { working } : {}) };
  }

  async forget(subject: string, target: ForgetTarget): Promise<string[]> {
    const list = this.subjects.get(subject) ?? [];
    let doomed: MemoryRecord[];
    if ('id' in target) doomed = list.filter((m) => m.id === target.id);
    else if ('session_id' in target) doomed = list.filter((m) => m.session_id === target.session_id);
    else {
      const { hits } = await this.recall({ subject, query: target.query, limit: list.length });
      const ids = new Set(hits.map((h) => h.memory.id));
      doomed = list.filter((m) => ids.has(m.id));
    }
    const gone = new Set(doomed);
    this.subjects.set(
      subject,
      list.filter((m) => !gone.has(m)),
    );
    return doomed.map((m) => m.id);
  }

  async get(subject: string, id: string): Promise<MemoryRecord | null> {
    const found = (this.subjects.get(subject) ?? []).find((m) => m.id === id);
    return found ? { ...found } : null;
  }

  async list(input: ListInput): Promise<{ memories: MemoryRecord[]; next_cursor: string | null }> {
    const all = [...this.matching(input.subject, input.tags, input.tier ? [input.tier] : undefined)]
      .filter((m) => !input.session_id || m.session_id === input.session_id)
      .reverse();
    const start = input.cursor ? Number(input.cursor) : 0;
    const limit = input.limit ?? 50;
    const page = all.slice(start, start + limit);
    return {
      memories: page.map((m) => ({ ...m })),
      next_cursor: start + limit < all.length ? String(start + limit) : null,
    };
  }

  private *matching(subject: string, tags?: string[], tiers?: string[], asOf?: Date): Iterable<MemoryRecord> {
    const candidates = tags?.length
      ? tags.map((tag) => this.tagged.get(`${subject}\n${tag}`) ?? []).sort((a, b) => a.length - b.length)[0]
      : (this.subjects.get(subject) ?? []);
    for (const memory of candidates) {
      if (tiers && !tiers.includes(memory.tier)) continue;
      if (tags && !tags.every((tag) => memory.tags.includes(tag))) continue;
      if (asOf && memory.created_at > asOf) continue;
      yield memory;
    }
  }
}
