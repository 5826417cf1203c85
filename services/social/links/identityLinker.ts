import { createHash, randomInt } from 'node:crypto';
import type { SocialIdentityRecord } from '../../../models/SocialIdentity';
import { socialError } from '../errors';
import { identityKey, webIdentity, type IdentityRef } from '../identities';
import type { SocialContext } from '../interactionRecorder';
import { mergePerson } from '../personMerger';
import type { RequestOrigin } from '../ports';

/** How long a link code can be redeemed. */
export const LINK_CODE_TTL_MS = 10 * 60_000;
/** Code alphabet: no 0/O, 1/I/L, so a code read aloud or typed in a game chat survives. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

const hashCode = (code: string) => createHash('sha256').update(code.trim().toUpperCase()).digest('hex');

/** Who redeems or unlinks: the service token (a bot) or a signed-in user. */
export type LinkCaller = { kind: 'service' } | { kind: 'user'; userId: string };

/**
 * A one-time code for linking `identity`: issued to a signed-in user (`webUser`; the bot of that platform redeems
 * it for the account that posts it) or to a bot (`webUser` null; the signed-in user redeems it).
 */
export async function issueLinkCode(context: SocialContext, identity: IdentityRef, webUser: string | null) {
  const code = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join(
    '',
  );
  const expiresAt = new Date(context.store.clock.now() + LINK_CODE_TTL_MS);
  await context.store.codes.create({
    _id: hashCode(code),
    platform: identity.platform,
    user_id: identity.user_id,
    web_user: webUser,
    expiresAt,
  });
  return { code, expires_at: expiresAt };
}

/** Redeems a code for `identity`: the code must be unexpired, issued for it, and issued by the other side. Single use. */
export async function redeemLinkCode(
  context: SocialContext,
  identity: IdentityRef,
  proof: string,
  caller: LinkCaller,
  origin: RequestOrigin,
) {
  const issuedBy = caller.kind === 'service' ? { web_user: { $ne: null } } : { web_user: null };
  const code = await context.store.codes
    .findOneAndDelete({
      _id: hashCode(proof),
      platform: identity.platform,
      user_id: identity.user_id,
      expiresAt: { $gt: context.store.now() },
      ...issuedBy,
    })
    .lean();
  if (!code)
    throw socialError(
      'LINK_PROOF_INVALID',
      'The link code is unknown, expired, used, or was issued for another account',
    );
  return linkIdentity(
    context,
    identity,
    caller.kind === 'service' ? (code.web_user as string) : caller.userId,
    origin,
  );
}

/**
 * Links a chat or game identity into the person of web user `webUser`; its history until now is folded into that
 * person. Linking it again to the same user changes nothing; an identity linked to another user is never moved
 * (409 IDENTITY_LINKED_ELSEWHERE: unlink it first).
 */
export async function linkIdentity(
  context: SocialContext,
  identity: IdentityRef,
  webUser: string,
  origin: RequestOrigin,
) {
  const { store, ports } = context;
  const key = identityKey(identity);
  const into = identityKey(webIdentity(webUser));
  const now = store.now();
  await store.persons([key, into], now);
  // The merge it owes is recorded with the link (one write): a crash before the merge ends leaves the flag.
  const moved = await store.identities.updateOne(
    { _id: key, person: key },
    { $set: { person: into, linked_at: now, linked_by: origin.actor, merge_pending: true } },
  );
  const current = (await store.identities.findById(key).lean<SocialIdentityRecord>()) as SocialIdentityRecord;
  if (moved.modifiedCount === 0 && current.person !== into) {
    audit(context, origin, 'social.link', key, 'refused', { person: current.person });
    throw socialError('IDENTITY_LINKED_ELSEWHERE', `${key} is linked to another person; unlink it first`);
  }
  // Linked now, or linked by an earlier attempt whose merge a crash cut short: this one finishes it.
  const finishing = moved.modifiedCount === 1 || current.merge_pending === true;
  if (finishing) {
    await finishMerge(store, key, into);
    ports.notify?.(webUser, 'social.link_confirmed', {
      platform: identity.platform,
      user_id: identity.user_id,
    });
    audit(context, origin, 'social.link', key, 'ok', { person: into });
  }
  const { merge_pending: _pending, ...stored } = current;
  return { identity: stored, linked: finishing };
}

/** Folds a linked identity's own person into the one it joined, then clears the identity's `merge_pending`. */
async function finishMerge(store: SocialContext['store'], key: string, into: string): Promise<void> {
  await mergePerson(store, key, into);
  await store.identities.updateOne({ _id: key, person: into }, { $unset: { merge_pending: '' } });
}

/** Identities linked this long ago and still flagged are not being merged now: the recovery pass finishes them. */
export const MERGE_AFTER_MS = 30_000;

/**
 * The recovery pass's part (`recovery/socialRecovery.ts`): finishes the merges of links a crash cut short (linked
 * more than `MERGE_AFTER_MS` ago, or all with `all`, and still `merge_pending`). Answers how many it finished.
 */
export async function finishPendingMerges(store: SocialContext['store'], all = false): Promise<number> {
  const before = new Date(store.clock.now() - (all ? 0 : MERGE_AFTER_MS));
  const pending = await store.identities
    .find({ merge_pending: true, linked_at: { $lte: before } })
    .limit(500)
    .lean<SocialIdentityRecord[]>();
  for (const identity of pending)
    if (identity.person !== identity._id) await finishMerge(store, identity._id, identity.person);
    else await store.identities.updateOne({ _id: identity._id }, { $unset: { merge_pending: '' } });
  return pending.length;
}

/** Unlinks an identity from its web person (a user only their own). It becomes its own person again, with no history. */
export async function unlinkIdentity(
  context: SocialContext,
  identity: IdentityRef,
  caller: LinkCaller,
  origin: RequestOrigin,
) {
  const { store } = context;
  const key = identityKey(identity);
  const current = await store.identities.findById(key).lean<SocialIdentityRecord>();
  if (!current || current.person === key) throw socialError('LINK_NOT_FOUND', `${key} is not linked`);
  if (caller.kind === 'user' && current.person !== identityKey(webIdentity(caller.userId))) {
    throw socialError('NOT_YOUR_IDENTITY', `${key} is linked to another user`);
  }
  const moved = await store.identities.updateOne(
    { _id: key, person: current.person },
    { $set: { person: key, linked_at: null, linked_by: null }, $unset: { merge_pending: '' } },
  );
  if (moved.modifiedCount === 0) throw socialError('SOCIAL_BUSY', `${key} changed meanwhile; retry`);
  audit(context, origin, 'social.unlink', key, 'ok', { person: current.person });
  return { ...current, person: key, linked_at: null, linked_by: null };
}

function audit(
  context: SocialContext,
  origin: RequestOrigin,
  kind: string,
  target: string,
  outcome: string,
  details: Record<string, unknown>,
) {
  context.ports.audit?.record({
    at: context.store.now(),
    actor: origin.actor,
    kind,
    target,
    outcome,
    ip: origin.ip,
    request_id: origin.requestId,
    details,
  });
}

/** How many links wait for their merge (the area's admin status). */
export function countPendingMerges(store: SocialContext['store']): Promise<number> {
  return store.identities.countDocuments({ merge_pending: true });
}
