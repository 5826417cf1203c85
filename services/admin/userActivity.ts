import { Types, type Model } from 'mongoose';
import type { AuditEvent, AuditEventRecord } from '../../models/AuditEvent';
import type { CharacterRecord } from '../../models/Character';
import type { IdentityRecord } from '../../models/Identity';
import type { UserRecord } from '../../models/User';
import { userNotFound } from './errors';
import type { ActivityEntryBody } from './schemas';

/** What a user's activity is read from: the audit log, users and identities, and the world's characters. */
export interface ActivitySources {
  events: Model<AuditEventRecord>;
  users: Model<UserRecord>;
  identities: Model<IdentityRecord>;
  /** The world's saved character of a user (services/mud's read), when the world is composed. */
  character?: (userId: string) => Promise<CharacterRecord | null>;
}

/** A user's activity: who they are, their character, counts per area and the timeline, newest first. */
export interface UserActivity {
  user: UserRecord;
  character: CharacterRecord | null;
  counts: Record<string, number>;
  timeline: ActivityEntryBody[];
}

/** Kinds whose target may be the user (their account) or one of their identities. */
const TARGETED_KINDS = [
  'auth.roles_changed',
  'economy.grant',
  'economy.transfer',
  'auth.sign_in_failed',
  'signer.request',
  'signer.reuse_alert',
  'social.link',
  'memory.erase',
];

/** The timeline area of an audit kind. */
export function areaOf(kind: string): ActivityEntryBody['area'] {
  if (kind.startsWith('auth.sign_in')) return 'sign-in';
  if (kind.startsWith('auth.')) return 'admin';
  if (kind.startsWith('economy.') || kind.startsWith('marketplace.')) return 'economy';
  if (kind.startsWith('social.')) return 'social';
  if (kind.startsWith('memory.')) return 'memory';
  if (kind.startsWith('signer.')) return 'signer';
  if (kind.startsWith('mcp.')) return 'tools';
  if (kind.startsWith('world.') || kind.startsWith('quest.')) return 'world';
  return 'other';
}

/**
 * One user's timeline across sign-in, world, economy, social, memory and signer: the audit events they acted in,
 * those aimed at their account or at one of their identities (wallet addresses, emails), and their character's
 * completed quests; newest first, before `before`, at most `limit`.
 */
export async function userActivity(
  sources: ActivitySources,
  userId: string,
  options: { limit: number; before?: Date },
): Promise<UserActivity> {
  const user = await sources.users.findById(new Types.ObjectId(userId)).lean<UserRecord>();
  if (!user) throw userNotFound(userId);
  const identities = await sources.identities.find({ userId: user._id }, { kind: 1, subject: 1 }).lean();
  const targets = [
    `user:${userId}`,
    ...identities.map((identity) =>
      identity.kind === 'wallet'
        ? `address:${identity.subject.toLowerCase()}`
        : `${identity.kind}:${identity.subject}`,
    ),
  ];
  const at = options.before ? { at: { $lt: options.before } } : {};
  const projection = { _id: 0, hour: 0, sig: 0 };
  const [acted, aimed, character] = await Promise.all([
    sources.events
      .find({ actor: `user:${userId}`, ...at }, projection)
      .sort({ at: -1 })
      .limit(options.limit)
      .lean<AuditEvent[]>(),
    sources.events
      .find({ kind: { $in: TARGETED_KINDS }, target: { $in: targets }, ...at }, projection)
      .sort({ at: -1 })
      .limit(options.limit)
      .lean<AuditEvent[]>(),
    sources.character ? sources.character(userId) : Promise.resolve(null),
  ]);
  const seen = new Set<string>();
  const entries: ActivityEntryBody[] = [];
  for (const event of [...acted, ...aimed]) {
    const key = `${new Date(event.at).getTime()}|${event.kind}|${event.actor}|${event.target}|${event.request_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({
      at: new Date(event.at).toISOString(),
      area: areaOf(event.kind),
      kind: event.kind,
      outcome: event.outcome,
      summary: summarise(event, `user:${userId}`),
    });
  }
  for (const [quest, progress] of Object.entries(character?.quests ?? {})) {
    if (progress.status !== 'completed' || !progress.completedAt) continue;
    if (options.before && progress.completedAt >= options.before.getTime()) continue;
    entries.push({
      at: new Date(progress.completedAt).toISOString(),
      area: 'world',
      kind: 'quest.completed',
      outcome: 'ok',
      summary: `completed the quest ${quest}`,
    });
  }
  entries.sort((a, b) => b.at.localeCompare(a.at));
  const timeline = entries.slice(0, options.limit);
  const counts: Record<string, number> = {};
  for (const entry of timeline) counts[entry.area] = (counts[entry.area] ?? 0) + 1;
  return { user, character, counts, timeline };
}

/** A one-line description of an event from the user's point of view. */
function summarise(event: AuditEvent, self: string): string {
  const details = event.details ?? {};
  const amount =
    typeof details.amount === 'number'
      ? ` ${details.amount} ${String(details.currency ?? '')}`.trimEnd()
      : '';
  const by = event.actor === self ? '' : ` by ${event.actor}`;
  const on = event.target && event.target !== self ? ` on ${event.target}` : '';
  const code = typeof details.code === 'string' ? ` (${details.code})` : '';
  return `${event.kind.replace(/[._]/g, ' ')}${amount}${on}${by}: ${event.outcome}${code}`;
}
