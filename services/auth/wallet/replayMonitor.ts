import type { Logger } from 'pino';
import type { Limiter } from '../../../platform/http/rateLimit';
import { siweReplays, siweReplaysInWindow, siweReplaysOverCap } from '../../../platform/metrics';

/**
 * Counts SIWE nonce replays per window (SIWE_REPLAY_CAP per window, shared through Redis when configured). Every
 * replay is counted; each one beyond the cap is also counted as over-cap and logged as a warning.
 */
export class ReplayMonitor {
  constructor(
    private readonly window: Limiter,
    private readonly logger: Logger,
  ) {}

  async record(details: { address: string; nonce: string }): Promise<void> {
    siweReplays.inc();
    const decision = await this.window.hit('all');
    siweReplaysInWindow.set(decision.consumed);
    if (!decision.allowed) {
      siweReplaysOverCap.inc();
      this.logger.warn(
        {
          ...details,
          replaysInWindow: decision.consumed,
          cap: this.window.points,
          windowSeconds: this.window.durationSeconds,
        },
        'SIWE replay cap exceeded',
      );
    }
  }
}
