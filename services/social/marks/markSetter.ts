import { identityKey, identityOfKey, type IdentityRef } from '../identities';
import type { SocialContext } from '../interactionRecorder';
import type { RequestOrigin } from '../ports';
import { socialError } from '../errors';
import { relationshipOf, type Relationship } from '../trust/relationships';
import { withMark, type EdgeState, type MarkKind } from '../trust/trustRules';
import { updateEdge } from '../trust/trustLedger';

/** Set or clear one mark of `actor` on `target`. */
export interface MarkInput {
  actor: IdentityRef;
  target: IdentityRef;
  mark: MarkKind;
  set: boolean;
  reason?: string;
  origin: RequestOrigin;
}

/** The edge after the change, as the routes present it. */
export interface MarkResult {
  observer: string;
  subject: string;
  trust: number;
  trust_before: number;
  relationship: Relationship;
  marks: EdgeState['marks'];
}

/**
 * Sets or clears a fren, foe or block mark (clearing one that is not set changes nothing). fren and foe exclude
 * each other. A fren or foe mark set on a web user is notified to them; blocks and unblocks are audited.
 */
export async function changeMark(context: SocialContext, input: MarkInput): Promise<MarkResult> {
  const { store, ports } = context;
  const persons = await store.persons([identityKey(input.actor), identityKey(input.target)], store.now());
  const observer = persons.get(identityKey(input.actor)) as string;
  const subject = persons.get(identityKey(input.target)) as string;
  if (observer === subject) throw socialError('SOCIAL_SELF_TARGET', 'A person cannot mark themselves');
  const now = store.now();
  const value = input.set ? { at: now, reason: input.reason ?? null } : null;
  const { before, after, state } = await updateEdge(
    store,
    observer,
    subject,
    (current, at) => withMark(current, input.mark, value, at),
    `${input.set ? 'mark' : 'unmark'}:${input.mark}`,
  );
  const subjectRef = identityOfKey(subject);
  if (input.set && input.mark !== 'block' && subjectRef.platform === 'web') {
    ports.notify?.(subjectRef.user_id, `social.${input.mark}`, {
      by: identityKey(input.actor),
      reason: input.reason ?? null,
    });
  }
  if (input.mark === 'block') {
    ports.audit?.record({
      at: now,
      actor: input.origin.actor,
      kind: input.set ? 'social.block' : 'social.unblock',
      target: identityKey(input.target),
      outcome: 'ok',
      ip: input.origin.ip,
      request_id: input.origin.requestId,
      details: { by: identityKey(input.actor), reason: input.reason ?? null },
    });
  }
  return {
    observer,
    subject,
    trust: after,
    trust_before: before,
    relationship: relationshipOf(after, state.marks),
    marks: state.marks,
  };
}
