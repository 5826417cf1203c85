import { SOCIAL_PLATFORMS } from '../../models/SocialIdentity';
import type { SocialStore } from './socialStore';

/** Counts across the social graph: identities per platform, persons, links, edges, marks, interactions, batches. */
export async function socialStats(store: SocialStore) {
  const dayAgo = new Date(store.clock.now() - 86_400_000);
  const [perPlatform, linked, edges, fren, foe, block, total, lastDay, batches] = await Promise.all([
    Promise.all(SOCIAL_PLATFORMS.map((platform) => store.identities.countDocuments({ platform }))),
    store.identities.countDocuments({ linked_at: { $ne: null } }),
    store.edges.estimatedDocumentCount(),
    store.edges.countDocuments({ 'marks.fren': { $ne: null } }),
    store.edges.countDocuments({ 'marks.foe': { $ne: null } }),
    store.edges.countDocuments({ 'marks.block': { $ne: null } }),
    store.interactions.estimatedDocumentCount(),
    store.interactions.countDocuments({ recordedAt: { $gte: dayAgo } }),
    store.batches.estimatedDocumentCount(),
  ]);
  const identities = Object.fromEntries(
    SOCIAL_PLATFORMS.map((platform, index) => [platform, perPlatform[index]]),
  );
  const all = perPlatform.reduce((sum, count) => sum + count, 0);
  return {
    identities,
    persons: all - linked,
    linked_identities: linked,
    edges,
    marks: { fren, foe, block },
    interactions: { total, last_day: lastDay },
    sync_batches: batches,
  };
}
