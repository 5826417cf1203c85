import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import { CIRCUIT_STATE_VALUE, circuitBreakerFailures, circuitBreakerState } from '../../platform/metrics';

/** Circuit states of SPEC.md 3.2. */
export type CircuitState = keyof typeof CIRCUIT_STATE_VALUE;

/** Breaker settings. Defaults (SPEC.md 8): 5 failures, 60 s recovery, 3 trial calls in HALF_OPEN. */
export interface CircuitBreakerOptions {
  failureThreshold: number;
  recoveryTimeoutMs: number;
  halfOpenTrials: number;
  clock: Clock;
  /** Which errors count as failures; others pass through without touching the state. Default: all. */
  isFailure: (error: unknown) => boolean;
}

export const DEFAULT_BREAKER_OPTIONS: CircuitBreakerOptions = {
  failureThreshold: 5,
  recoveryTimeoutMs: 60_000,
  halfOpenTrials: 3,
  clock: systemClock,
  isFailure: () => true,
};

/** Thrown instead of calling a provider whose circuit is open (or whose half-open trials are taken). */
export class CircuitOpenError extends Error {
  readonly provider: string;

  constructor(provider: string) {
    super(`Circuit for ${provider} is open`);
    this.name = 'CircuitOpenError';
    this.provider = provider;
  }
}

/**
 * A circuit breaker for one provider, written here because neither cockatiel nor opossum supports several
 * half-open trial calls or an injectable clock. Transitions:
 * - CLOSED: a success resets the consecutive-failure count; the `failureThreshold`-th consecutive failure → OPEN.
 * - OPEN: calls are rejected with CircuitOpenError without reaching the provider; once `recoveryTimeoutMs`
 *   has passed since opening, the next look at the state moves it → HALF_OPEN.
 * - HALF_OPEN: up to `halfOpenTrials` calls are let through (more are rejected until they settle); when all
 *   of them succeed → CLOSED; the first failure → OPEN again, restarting the recovery timeout.
 * Outcomes of calls started before the latest transition are counted in metrics but move no state.
 * The state feeds `brain_circuit_breaker_state{provider}`; failures `brain_circuit_breaker_failures_total`.
 */
export class CircuitBreaker {
  private current: CircuitState = 'CLOSED';
  private epoch = 0;
  private consecutiveFailures = 0;
  private openedAt = 0;
  private trialsAdmitted = 0;
  private trialsSucceeded = 0;
  private readonly options: CircuitBreakerOptions;

  constructor(
    readonly provider: string,
    options: Partial<CircuitBreakerOptions> = {},
  ) {
    this.options = { ...DEFAULT_BREAKER_OPTIONS, ...options };
    circuitBreakerState.set({ provider }, CIRCUIT_STATE_VALUE.CLOSED);
  }

  /** The current state, after applying an elapsed recovery timeout. */
  get state(): CircuitState {
    if (
      this.current === 'OPEN' &&
      this.options.clock.now() - this.openedAt >= this.options.recoveryTimeoutMs
    ) {
      this.moveTo('HALF_OPEN');
    }
    return this.current;
  }

  /** True when a call would be let through now. */
  get admitsCalls(): boolean {
    const state = this.state;
    return state === 'CLOSED' || (state === 'HALF_OPEN' && this.trialsAdmitted < this.options.halfOpenTrials);
  }

  /** Runs `operation` through the breaker; rejects with CircuitOpenError when it is not admitted. */
  async execute<T>(operation: () => Promise<T>): Promise<T> {
    if (!this.admitsCalls) throw new CircuitOpenError(this.provider);
    if (this.current === 'HALF_OPEN') this.trialsAdmitted++;
    const epoch = this.epoch;
    try {
      const result = await operation();
      if (epoch === this.epoch) this.onSuccess();
      return result;
    } catch (error) {
      if (this.options.isFailure(error)) {
        circuitBreakerFailures.inc({ provider: this.provider });
        if (epoch === this.epoch) this.onFailure();
      }
      throw error;
    }
  }

  private onSuccess(): void {
    if (this.current === 'HALF_OPEN') {
      this.trialsSucceeded++;
      if (this.trialsSucceeded >= this.options.halfOpenTrials) this.moveTo('CLOSED');
      return;
    }
    this.consecutiveFailures = 0;
  }

  private onFailure(): void {
    if (this.current === 'HALF_OPEN') return this.moveTo('OPEN');
    this.consecutiveFailures++;
    if (this.consecutiveFailures >= this.options.failureThreshold) this.moveTo('OPEN');
  }

  private moveTo(next: CircuitState): void {
    this.current = next;
    this.epoch++;
    this.consecutiveFailures = 0;
    this.trialsAdmitted = 0;
    this.trialsSucceeded = 0;
    if (next === 'OPEN') this.openedAt = this.options.clock.now();
    circuitBreakerState.set({ provider: this.provider }, CIRCUIT_STATE_VALUE[next]);
  }
}
