import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** IngestActivity settings. Defaults: quiet once no ingest has run for 200 ms, checked every 50 ms. */
export interface IngestActivityOptions {
  settleMs: number;
  pollMs: number;
}

const DEFAULTS: IngestActivityOptions = { settleMs: 200, pollMs: 50 };

/**
 * Whether ingests are running, for the background enrichment to give way to them (searchable first, enriched
 * after): the graph and RAPTOR upkeep wait, each round, until no ingest has run for `settleMs` or until their
 * own bound has passed, so a bulk ingest gets the event loop and the enrichment catches up behind it (its backlog
 * shows in `/brain/stats`). Before, their rounds overlapped every batch on the one loop: a quarter to a third of
 * the main thread during a bulk ingest (bench/README.md, issue 37, stop 45).
 */
export class IngestActivity {
  private running = 0;
  private lastEndAt = -Infinity;
  private readonly options: IngestActivityOptions;

  constructor(options: Partial<IngestActivityOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Marks an ingest as running until the returned function is called (once). */
  begin(): () => void {
    this.running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running--;
      this.lastEndAt = performance.now();
    };
  }

  /** True while an ingest runs or ended less than `settleMs` ago. */
  get busy(): boolean {
    return this.running > 0 || performance.now() - this.lastEndAt < this.options.settleMs;
  }

  /** Resolves once no ingest is busy, or after `maxWaitMs` (0: at once). */
  async quiet(maxWaitMs: number): Promise<void> {
    const until = performance.now() + maxWaitMs;
    while (this.busy && performance.now() < until)
      await sleep(Math.min(this.options.pollMs, Math.max(1, until - performance.now())));
  }
}
