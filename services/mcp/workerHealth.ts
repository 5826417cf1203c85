import type { Clock } from '../../platform/clock';
import { runChecks, type ReadinessCheck } from '../../platform/stores/readiness';
import type { ToolOutcome } from './errors';
import type { Worker, WorkerProbe } from './toolDefinition';

/** The last failed call of a worker. */
export interface LastError {
  at: string;
  tool: string;
  code: string;
  message: string;
}

/** A worker's state and call figures, as the operator health route shows them. */
export interface WorkerReport extends WorkerProbe {
  name: string;
  description: string;
  tools: number;
  calls: number;
  errors: number;
  latency_ms: { p50: number | null; p95: number | null };
  last_error: LastError | null;
  checked_at: string;
}

/** Options of WorkerHealth. */
export interface WorkerHealthOptions {
  workers: Worker[];
  checks: ReadinessCheck[];
  clock: Clock;
  /** How long a derived state is trusted before the stores and probe are asked again; default 5 s. */
  ttlMs?: number;
  /** Bound of each store check; default 2 s. */
  checkTimeoutMs?: number;
}

const WINDOW = 128;

interface Figures {
  calls: number;
  errors: number;
  durations: number[];
  lastError: LastError | null;
  probe?: { value: WorkerProbe; at: number };
  pending?: Promise<WorkerProbe>;
}

/**
 * Each worker's state, derived from the readiness of the stores it uses and its own probe (providers,
 * reachability) and cached for `ttlMs`; plus its call figures (count, errors, latency of the last 128 calls, last
 * error) fed by the gateway after every call.
 */
export class WorkerHealth {
  private readonly figures = new Map<string, Figures>();
  private readonly ttlMs: number;

  constructor(private readonly options: WorkerHealthOptions) {
    this.ttlMs = options.ttlMs ?? 5_000;
    for (const worker of options.workers) {
      this.figures.set(worker.name, { calls: 0, errors: 0, durations: [], lastError: null });
    }
  }

  /** The worker's state, from cache when fresh. */
  async state(worker: Worker): Promise<WorkerProbe> {
    const figures = this.figuresOf(worker.name);
    const now = this.options.clock.now();
    if (figures.probe && now - figures.probe.at < this.ttlMs) return figures.probe.value;
    figures.pending ??= this.derive(worker).then((value) => {
      figures.probe = { value, at: this.options.clock.now() };
      figures.pending = undefined;
      return value;
    });
    return figures.pending;
  }

  /** Records one call of a worker's tool. */
  recordCall(worker: string, outcome: ToolOutcome, durationMs: number, error?: LastError): void {
    const figures = this.figuresOf(worker);
    figures.calls += 1;
    figures.durations.push(durationMs);
    if (figures.durations.length > WINDOW) figures.durations.shift();
    if (outcome !== 'ok' && outcome !== 'refused' && outcome !== 'input_required') figures.errors += 1;
    if (error) figures.lastError = error;
  }

  /** Every worker's state and figures (asks stale probes again). */
  async report(): Promise<WorkerReport[]> {
    return Promise.all(
      this.options.workers.map(async (worker) => {
        const state = await this.state(worker);
        const figures = this.figuresOf(worker.name);
        return {
          name: worker.name,
          description: worker.description,
          ...state,
          tools: worker.tools.length,
          calls: figures.calls,
          errors: figures.errors,
          latency_ms: percentiles(figures.durations),
          last_error: figures.lastError,
          checked_at: new Date(figures.probe?.at ?? this.options.clock.now()).toISOString(),
        };
      }),
    );
  }

  private figuresOf(worker: string): Figures {
    const figures = this.figures.get(worker);
    if (!figures) throw new Error(`Unknown worker ${worker}`);
    return figures;
  }

  private async derive(worker: Worker): Promise<WorkerProbe> {
    const checks = this.options.checks.filter((check) => worker.stores.includes(check.name));
    const results = await runChecks(checks, this.options.checkTimeoutMs ?? 2_000);
    const down = results.filter((result) => result.status === 'down');
    if (down.length > 0) {
      return {
        state: 'down',
        reason: down.map((result) => `${result.name} store: ${result.error ?? 'down'}`).join('; '),
      };
    }
    try {
      return (await worker.probe?.()) ?? { state: 'up' };
    } catch (error) {
      return { state: 'down', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** p50 and p95 of `durations` in ms (rounded to 0.01), null when there are none. */
function percentiles(durations: number[]): { p50: number | null; p95: number | null } {
  if (durations.length === 0) return { p50: null, p95: null };
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  return { p50: at(0.5), p95: at(0.95) };
}
