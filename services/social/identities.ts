import { createHash } from 'node:crypto';
import type { SocialPlatform } from '../../models/SocialIdentity';

/** One account on one platform, as requests name it. */
export interface IdentityRef {
  platform: SocialPlatform;
  user_id: string;
}

/** The stored key of an identity: `<platform>:<user_id>` (also the id of the person of an unlinked identity). */
export function identityKey(ref: IdentityRef): string {
  return `${ref.platform}:${ref.user_id}`;
}

/** The identity a key names (platforms contain no colon, so the first one separates). */
export function identityOfKey(key: string): IdentityRef {
  const colon = key.indexOf(':');
  return { platform: key.slice(0, colon) as SocialPlatform, user_id: key.slice(colon + 1) };
}

/** The web identity of a platform user: a web user's character in the world is this identity. */
export function webIdentity(userId: string): IdentityRef {
  return { platform: 'web', user_id: userId };
}

/**
 * The memory subject of a person (services/brain/memory): `user:<id>` for a web person (and for chat or game
 * identities linked into one), `social:<platform>:<user_id>` for a chat or game identity not linked to a web user.
 */
export function memorySubject(person: string): string {
  const ref = identityOfKey(person);
  return ref.platform === 'web' ? `user:${ref.user_id}` : `social:${ref.platform}:${ref.user_id}`;
}

/** The directed edge id of `from`'s view of `to` (person ids). */
export function edgeId(from: string, to: string): string {
  return `${from}>${to}`;
}

/** sha256 of a canonical JSON text of `value` (idempotency: the same key with another body is a conflict). */
export function requestHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
