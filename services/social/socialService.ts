import { changeMark, type MarkInput } from './marks/markSetter';
import { socialError } from './errors';
import { graphOf, friendsOf, relationshipsOf, trustHistory } from './graphReader';
import { identityKey, webIdentity, type IdentityRef } from './identities';
import {
  issueLinkCode,
  linkIdentity,
  redeemLinkCode,
  unlinkIdentity,
  type LinkCaller,
} from './links/identityLinker';
import { recordInteraction, type InteractionInput, type SocialContext } from './interactionRecorder';
import { searchPeople } from './peopleSearch';
import { readProfile, requirePerson } from './profileReader';
import type { RequestOrigin } from './ports';
import type { SocialCaller } from './socialGuards';
import { socialStats } from './socialStats';
import { ingestBatch, type SyncPlatform } from './sync/syncIngestor';
import type { SyncBatch } from './sync/schemas';
import { rankThreats, standingOf } from './trust/threatAssessor';
import { dispositionOf, type Disposition } from './trust/relationships';
import type { ThreatLevel } from './trust/threat';
import type { SocialPlatform } from '../../models/SocialIdentity';
import type { Relationship } from './trust/relationships';

/** A player's standing as the world reads it (NPC disposition): reputation, threat and the disposition they give. */
export interface PlayerStanding {
  user_id: string;
  reputation: number;
  observers: number;
  threat_level: ThreatLevel;
  threat_score: number;
  disposition: Disposition;
}

/**
 * The social graph's operations, for the routes and for other areas (the world reads `standing`, the MCP gateway
 * may call the rest). Methods taking a `SocialCaller` enforce that a user acts only as their own identities.
 */
export class SocialService {
  constructor(readonly context: SocialContext) {}

  private get store() {
    return this.context.store;
  }

  /**
   * Checks that `caller` may act as `ref`: the service token as anyone; a user as their web identity or an identity
   * linked to it (403 NOT_YOUR_IDENTITY otherwise).
   */
  async assertActsAs(caller: SocialCaller, ref: IdentityRef): Promise<void> {
    if (caller.kind === 'service') return;
    const own = identityKey(webIdentity(caller.userId));
    if (identityKey(ref) === own) return;
    if (ref.platform !== 'web' && (await this.store.existingPersonOf(ref)) === own) return;
    throw socialError(
      'NOT_YOUR_IDENTITY',
      `A signed-in user acts only as their own identities, not ${identityKey(ref)}`,
    );
  }

  /** The viewer of a read: a user's own web identity, or (service token) the one the query names. */
  viewerOf(caller: SocialCaller, named: Partial<IdentityRef>): IdentityRef | null {
    if (caller.kind === 'user') return webIdentity(caller.userId);
    return named.platform && named.user_id ? { platform: named.platform, user_id: named.user_id } : null;
  }

  async interaction(
    caller: SocialCaller,
    input: Omit<InteractionInput, 'id' | 'source' | 'remember'> & { key: string },
  ) {
    await this.assertActsAs(caller, input.actor);
    const scope = caller.kind === 'service' ? 'service' : `user:${caller.userId}`;
    return recordInteraction(this.context, {
      ...input,
      id: `${scope}:${input.key}`,
      source: 'api',
      remember: true,
      selfReported: caller.kind === 'user',
    });
  }

  async mark(caller: SocialCaller, input: MarkInput) {
    await this.assertActsAs(caller, input.actor);
    return changeMark(this.context, input);
  }

  profile(ref: IdentityRef, viewer: IdentityRef | null) {
    return readProfile(this.store, ref, viewer);
  }

  /** The frens of `ref` (none for an account the platform has not seen yet, such as a new user). */
  async friends(ref: IdentityRef, limit: number) {
    return friendsOf(this.store, (await this.store.existingPersonOf(ref)) ?? identityKey(ref), limit);
  }

  /** Outgoing and incoming relationships; a user sees only the blocks they set themselves. */
  async relationships(
    caller: SocialCaller,
    ref: IdentityRef,
    filter: Relationship | undefined,
    limit: number,
  ) {
    const blocks = caller.kind === 'service' ? 'all' : identityKey(webIdentity(caller.userId));
    return relationshipsOf(this.store, await requirePerson(this.store, ref), filter, limit, blocks);
  }

  async graph(ref: IdentityRef, depth: number, limit: number) {
    return graphOf(this.store, await requirePerson(this.store, ref), depth, limit);
  }

  /** `viewer`'s trust in `ref` over time. */
  async history(viewer: IdentityRef, ref: IdentityRef, limit: number) {
    // A viewer the platform has not seen yet trusts everyone 50 and has no history; an unknown subject is 404.
    const [observer, subject] = await Promise.all([
      this.store.existingPersonOf(viewer).then((person) => person ?? identityKey(viewer)),
      requirePerson(this.store, ref),
    ]);
    return { observer, subject, ...(await trustHistory(this.store, observer, subject, limit)) };
  }

  /** People ranked by threat, with each one's identities. */
  async threats(minLevel: ThreatLevel, limit: number) {
    const ranked = await rankThreats(this.store, minLevel, limit);
    const identities = new Map(
      await Promise.all(
        ranked.map(async (entry) => [entry.person, await this.store.identitiesOf(entry.person)] as const),
      ),
    );
    return { ranked, identities };
  }

  search(query: string, platform: SocialPlatform | undefined, limit: number) {
    return searchPeople(this.store, query, platform, limit);
  }

  stats() {
    return socialStats(this.store);
  }

  sync(platform: SyncPlatform, batch: SyncBatch) {
    return ingestBatch(this.context, platform, batch);
  }

  /** A link code: a user's for an account they will confirm through its bot, or a bot's for a user to redeem. */
  async linkCode(caller: SocialCaller, identity: IdentityRef) {
    return issueLinkCode(this.context, identity, caller.kind === 'user' ? caller.userId : null);
  }

  /** Links with a code (either side), or directly to `webUserId` with the service token. */
  async link(
    caller: SocialCaller,
    identity: IdentityRef,
    proof: { code?: string; webUserId?: string },
    origin: RequestOrigin,
  ) {
    const linkCaller: LinkCaller =
      caller.kind === 'user' ? { kind: 'user', userId: caller.userId } : { kind: 'service' };
    if (proof.code) return redeemLinkCode(this.context, identity, proof.code, linkCaller, origin);
    if (caller.kind === 'service' && proof.webUserId)
      return linkIdentity(this.context, identity, proof.webUserId, origin);
    throw socialError(
      'LINK_PROOF_REQUIRED',
      caller.kind === 'user'
        ? 'A user links with the code the bot gave them (proof)'
        : 'Give proof (a code) or web_user_id',
    );
  }

  unlink(caller: SocialCaller, identity: IdentityRef, origin: RequestOrigin) {
    const linkCaller: LinkCaller =
      caller.kind === 'user' ? { kind: 'user', userId: caller.userId } : { kind: 'service' };
    return unlinkIdentity(this.context, identity, linkCaller, origin);
  }

  /**
   * How the social graph regards a platform user (their character is their web identity): the mean trust of people
   * with an edge toward them, their threat, and the NPC disposition that follows (README, "The world").
   */
  async standing(userId: string): Promise<PlayerStanding> {
    const standing = await standingOf(this.store, identityKey(webIdentity(userId)));
    return {
      user_id: userId,
      reputation: standing.reputation,
      observers: standing.observers,
      threat_level: standing.threat.level,
      threat_score: standing.threat.score,
      disposition: dispositionOf(standing.reputation, standing.threat.level),
    };
  }
}
