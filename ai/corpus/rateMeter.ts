/** Items per second over a sliding window (background upkeep rates for /brain/stats). Default window: 60 s. */
export class RateMeter {
  private readonly events: { at: number; count: number }[] = [];
  total = 0;

  constructor(
    private readonly now: () => number = () => Date.now(),
    private readonly windowMs = 60_000,
  ) {}

  add(count: number): void {
    this.total += count;
    this.events.push({ at: this.now(), count });
    this.trim();
  }

  /** Items per second over the window (from its first event to now), rounded to a tenth; 0 without events. */
  perSecond(): number {
    this.trim();
    if (this.events.length === 0) return 0;
    const count = this.events.reduce((n, e) => n + e.count, 0);
    const seconds = Math.max(1, this.now() - this.events[0].at) / 1000;
    return Math.round((count / seconds) * 10) / 10;
  }

  private trim(): void {
    const from = this.now() - this.windowMs;
    while (this.events.length > 0 && this.events[0].at < from) this.events.shift();
  }
}

/** Per-document queue times of a background upkeep: the oldest pending document for /brain/stats. */
export class PendingSince {
  private readonly since = new Map<string, number>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  queued(documentId: string): void {
    if (!this.since.has(documentId)) this.since.set(documentId, this.now());
  }

  done(documentId: string): void {
    this.since.delete(documentId);
  }

  get count(): number {
    return this.since.size;
  }

  has(documentId: string): boolean {
    return this.since.has(documentId);
  }

  /** The time the oldest pending document was queued (epoch ms), null when none is. */
  oldest(): number | null {
    // Map keeps insertion order and queued() never re-inserts: the first entry is the oldest.
    const first = this.since.values().next();
    return first.done ? null : first.value;
  }
}
