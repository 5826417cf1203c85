import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock';
import { SignerStoppedError } from '../errors';

/** Options of SignerAvailability. */
export interface SignerAvailabilityOptions {
  /**
   * The signer check: the RPC endpoint serves the configured chain and both contracts expect the current key
   * (SignerCore.verify, plus whatever must exist before signing). Resolves to the signer address.
   */
  check: () => Promise<string>;
  /** The address of the key the provider holds now (cheap; the provider caches it). */
  currentSigner: () => Promise<string>;
  /** How long a passed check is trusted; default 60 s (a contract's setSigner is noticed within this). */
  recheckMs?: number;
  /** How soon a failed check is retried by the next request; default 5 s. */
  retryMs?: number;
  clock: Clock;
  logger: Logger;
}

/** What SignerAvailability.snapshot reports (read by status tools and health probes). */
export type SignerAvailabilitySnapshot =
  | { ready: true; checkedAt: string; signer: string }
  | { ready: false; checkedAt: string | null; code: string; reason: string };

type State =
  | { ready: true; signer: string; checkedAt: number }
  | { ready: false; error: SignerStoppedError; checkedAt: number };

/**
 * Whether the signer may issue. The check runs at start-up; a failure (key not the contracts' signer, RPC on the
 * wrong chain, key or RPC unavailable) stops the signer, with an error log, and every request answers 503 with
 * the reason. The check runs again on a request once `recheckMs` (ready) or `retryMs` (stopped) has passed, and at
 * once when the key provider's key changed (a rotated keystore), so a fixed configuration or a contract rotated to
 * the new key resumes without a restart, and a contract rotated away from the key stops issuing within a minute.
 */
export class SignerAvailability {
  private state?: State;
  private pending?: Promise<State>;
  private readonly recheckMs: number;
  private readonly retryMs: number;

  constructor(private readonly options: SignerAvailabilityOptions) {
    this.recheckMs = options.recheckMs ?? 60_000;
    this.retryMs = options.retryMs ?? 5_000;
  }

  /** Runs the start-up check and logs its outcome; never throws (a stopped signer still lets the platform start). */
  async start(): Promise<void> {
    await this.recheck();
  }

  /** Resolves when the signer may issue; throws SignerStoppedError (503) otherwise. */
  async ensureReady(): Promise<void> {
    const now = this.options.clock.now();
    let state = this.state;
    const due = !state || now - state.checkedAt >= (state.ready ? this.recheckMs : this.retryMs);
    const keyChanged =
      state?.ready === true && (await this.options.currentSigner().catch(() => '')) !== state.signer;
    if (due || keyChanged) state = await this.recheck();
    if (!state?.ready) throw (state as { error: SignerStoppedError }).error;
  }

  /** The outcome of the latest check without running one: ready with the signer, or stopped with the reason. */
  snapshot(): SignerAvailabilitySnapshot {
    const state = this.state;
    if (!state)
      return { ready: false, checkedAt: null, code: 'SIGNER_NOT_CHECKED', reason: 'not checked yet' };
    const checkedAt = new Date(state.checkedAt).toISOString();
    if (state.ready) return { ready: true, checkedAt, signer: state.signer };
    return { ready: false, checkedAt, code: state.error.code, reason: state.error.reason };
  }

  private recheck(): Promise<State> {
    this.pending ??= this.runCheck().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async runCheck(): Promise<State> {
    const { check, clock, logger } = this.options;
    const before = this.state;
    let next: State;
    try {
      next = { ready: true, signer: await check(), checkedAt: clock.now() };
      if (!before?.ready) logger.info({ signer: next.signer, resumed: before !== undefined }, 'signer ready');
    } catch (error) {
      next = { ready: false, error: new SignerStoppedError(error), checkedAt: clock.now() };
      if (before?.ready !== false || before.error.message !== next.error.message) {
        logger.error({ code: next.error.code, err: error }, `signer stopped: ${next.error.reason}`);
      }
    }
    this.state = next;
    return next;
  }
}
