import type { Agenda } from 'agenda';
import { finishPendingMerges } from '../links/identityLinker';
import { rememberPending } from '../memories/interactionMemories';
import type { SocialContext } from '../interactionRecorder';
import { flushPendingHistory } from '../trust/edgeHistory';

/** The job that finishes social writes a crash left half done (every minute, and at start). */
export const SOCIAL_RECOVERY_JOB = 'social.recovery';

/**
 * Finishes what a killed process left between the social area's stores: trust history entries still in their
 * edge's outbox (`trust/edgeHistory.ts`) are copied into the history, and interactions stored but not yet
 * remembered (`memories/interactionMemories.ts`) are remembered, and links whose merge a crash cut short
 * (`links/identityLinker.ts`) are merged. All three are idempotent, so a pass that overlaps a live write or another
 * pass changes nothing twice.
 */
export class SocialRecovery {
  constructor(private readonly context: SocialContext) {}

  /** One pass; answers what it finished. */
  async run(options: { all?: boolean } = {}): Promise<{ edges: number; remembered: number; merged: number }> {
    const merged = await finishPendingMerges(this.context.store, options.all);
    const edges = await flushPendingHistory(this.context.store);
    const remembered = await rememberPending(this.context, 500, options.all);
    if (edges + remembered + merged > 0)
      this.context.logger.info({ edges, remembered, merged }, 'social writes finished by recovery');
    return { edges, remembered, merged };
  }

  /**
   * The recovery job, every minute; run once at start by the process that registers it. The start's pass (`all`)
   * takes every flagged write however recent, so what a killed process left is finished at once (a write still in
   * flight in another process is finished twice, which changes nothing: every step is idempotent).
   */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define<{ all?: boolean }>(SOCIAL_RECOVERY_JOB, async (job) => {
      await this.run({ all: job.attrs.data?.all === true });
    });
    await agenda.every('1 minute', SOCIAL_RECOVERY_JOB);
    await agenda.now(SOCIAL_RECOVERY_JOB, { all: true });
  }
}
