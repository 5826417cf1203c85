import { DETECTOR_THRESHOLDS, quantile, round, type ScannedEvent } from './patternDetectors';
import type { AnomalyBody } from './schemas';

const MONEY_KINDS = new Set(['economy.transfer', 'economy.grant', 'marketplace.sale']);
const iso = (at: Date) => at.toISOString();

/** Amounts far above the others of their kind: z-score of log10(amount) with at least 10 samples. */
export function largeAmounts(events: ScannedEvent[]): AnomalyBody[] {
  const t = DETECTOR_THRESHOLDS;
  const byKind = new Map<string, Array<{ event: ScannedEvent; amount: number }>>();
  for (const event of events) {
    const amount = event.details.amount;
    if (!MONEY_KINDS.has(event.kind) || typeof amount !== 'number' || amount <= 0) continue;
    const key = `${event.kind}|${String(event.details.currency ?? '')}`;
    const list = byKind.get(key);
    if (list) list.push({ event, amount });
    else byKind.set(key, [{ event, amount }]);
  }
  const found: AnomalyBody[] = [];
  for (const entries of byKind.values()) {
    if (entries.length < t.amountMinSamples) continue;
    const logs = entries.map((entry) => Math.log10(entry.amount));
    const mean = logs.reduce((sum, value) => sum + value, 0) / logs.length;
    const std = Math.sqrt(logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / logs.length);
    const median = quantile(
      entries.map((entry) => entry.amount),
      0.5,
    );
    for (const { event, amount } of entries) {
      const z = std > 0 ? (Math.log10(amount) - mean) / std : 0;
      if (z < t.amountZ || amount < 10 * median) continue;
      found.push({
        type: 'large_amount',
        severity: z >= 5 ? 'high' : z >= 4 ? 'medium' : 'low',
        score: round(z),
        actor: event.actor,
        kind: event.kind,
        target: event.target,
        count: 1,
        first_at: iso(event.at),
        last_at: iso(event.at),
        explanation: `${event.kind} of ${amount} ${String(event.details.currency ?? '')} by ${event.actor} is ${round(amount / Math.max(1, median))}× the median of ${entries.length} (z ${round(z)} on a log scale)`,
        evidence: { amount, median, samples: entries.length },
      });
    }
  }
  return found;
}

/** Users who resold an item within an hour of buying it on the marketplace (from `marketplace.sale` events). */
export function fastFlips(events: ScannedEvent[]): AnomalyBody[] {
  const bought = new Map<string, { at: Date; amount: number }>();
  const flips = new Map<string, Array<{ item: string; bought: Date; sold: Date; margin: number }>>();
  for (const event of events) {
    if (event.kind !== 'marketplace.sale' || typeof event.details.item !== 'string') continue;
    const amount = typeof event.details.amount === 'number' ? event.details.amount : 0;
    const seller = typeof event.details.seller === 'string' ? `user:${event.details.seller}` : undefined;
    const item = event.details.item;
    const purchase = seller && bought.get(`${seller}|${item}`);
    if (seller && purchase && event.at.getTime() - purchase.at.getTime() <= DETECTOR_THRESHOLDS.flipMs) {
      flips.set(seller, [
        ...(flips.get(seller) ?? []),
        { item, bought: purchase.at, sold: event.at, margin: amount - purchase.amount },
      ]);
    }
    bought.set(`${event.actor}|${item}`, { at: event.at, amount });
  }
  return [...flips].map(([actor, list]) => {
    const margin = list.reduce((sum, flip) => sum + flip.margin, 0);
    return {
      type: 'fast_flip' as const,
      severity:
        list.length >= 5 ? ('high' as const) : list.length >= 2 ? ('medium' as const) : ('low' as const),
      score: list.length,
      actor,
      kind: 'marketplace.sale',
      target: null,
      count: list.length,
      first_at: iso(list[0].bought),
      last_at: iso(list[list.length - 1].sold),
      explanation: `${actor} resold ${list.length} item(s) within an hour of buying them, for a total margin of ${margin}`,
      evidence: { items: list.slice(0, 10).map((flip) => flip.item), margin },
    };
  });
}

/**
 * Accounts created in the window whose activity already looks established: at least 20 events, a kind mix
 * (cosine) within 0.9 of established accounts' mix, and a volume at or above their 75th percentile.
 */
export function newAccountsLikeOld(
  events: ScannedEvent[],
  created: Map<string, Date>,
  establishedSince: Date,
): AnomalyBody[] {
  const t = DETECTOR_THRESHOLDS;
  const profiles = new Map<string, Map<string, number>>();
  for (const event of events) {
    if (!event.actor.startsWith('user:')) continue;
    let profile = profiles.get(event.actor);
    if (!profile) profiles.set(event.actor, (profile = new Map()));
    profile.set(event.kind, (profile.get(event.kind) ?? 0) + 1);
  }
  const isNew = (actor: string) => (created.get(actor)?.getTime() ?? -Infinity) >= establishedSince.getTime();
  const established = [...profiles].filter(([actor]) => !isNew(actor));
  if (established.length < 3) return [];
  const centroid = new Map<string, number>();
  for (const [, profile] of established) {
    const total = sum(profile);
    for (const [kind, n] of profile) centroid.set(kind, (centroid.get(kind) ?? 0) + n / total);
  }
  const volumes = established.map(([, profile]) => sum(profile));
  const p75 = quantile(volumes, 0.75);
  const found: AnomalyBody[] = [];
  for (const [actor, profile] of profiles) {
    if (!isNew(actor)) continue;
    const volume = sum(profile);
    const similarity = cosine(profile, centroid);
    if (volume < t.likeOldMinEvents || volume < p75 || similarity < t.likeOldSimilarity) continue;
    found.push({
      type: 'new_account_like_old',
      severity: volume >= 3 * p75 ? 'high' : 'medium',
      score: round(similarity),
      actor,
      kind: null,
      target: null,
      count: volume,
      first_at: (created.get(actor) as Date).toISOString(),
      last_at: (created.get(actor) as Date).toISOString(),
      explanation: `${actor} was created in this window yet did ${volume} actions with the mix of an established account (similarity ${round(similarity)}; established 75th percentile ${round(p75)} actions)`,
      evidence: { kinds: Object.fromEntries(profile), established_p75: round(p75) },
    });
  }
  return found;
}

function sum(profile: Map<string, number>): number {
  let total = 0;
  for (const n of profile.values()) total += n;
  return total;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [key, value] of a) {
    dot += value * (b.get(key) ?? 0);
    na += value * value;
  }
  for (const value of b.values()) nb += value * value;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
