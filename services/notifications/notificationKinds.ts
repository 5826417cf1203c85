/**
 * The kinds of notification the platform publishes, and which of them are "noisy": a user receives at most
 * `NOTIFICATIONS_NOISY_PER_HOUR` of each noisy kind per hour (the rest are dropped and counted), so a stream of
 * one-coin transfers or marks cannot bury a sale or a security alert. A kind not listed here is treated as noisy.
 */
export const NOTIFICATION_KINDS = {
  /** Someone marked you fren in the social graph (payload: by, their identity key; reason). */
  'social.fren': { noisy: true },
  /** Someone marked you foe (payload: by, reason). */
  'social.foe': { noisy: true },
  /** A chat or game account of yours was linked to your person (payload: platform, user_id): never capped. */
  'social.link_confirmed': { noisy: false },
  /** One of your listings sold (payload: listing, buyer, amount, currency, fee). */
  'marketplace.sale': { noisy: false },
  /** You bought a listing (payload: listing, seller, amount, currency). */
  'marketplace.purchase': { noisy: false },
  /** Coins arrived from another user (payload: from, amount, currency, memo). */
  'economy.transfer_received': { noisy: true },
  /** After a quest completion, the quests to do next (payload: quests [{quest, name, score}]). */
  'quests.recommendations': { noisy: true },
  /** Your companion's bond rose to a new level (payload: companion, name, bond). */
  'companion.bond': { noisy: false },
  /** A wallet your account had never used was linked and signed in (payload: address). */
  'security.new_wallet': { noisy: false },
} as const satisfies Record<string, { noisy: boolean }>;

/** A kind the platform names; publishers may use others (they are capped as noisy). */
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

/** What a kind looks like: lowercase words joined by dots or underscores, e.g. `marketplace.sale`. */
export const KIND_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** Whether `kind` is capped per user and hour. */
export function isNoisy(kind: string): boolean {
  const known = (NOTIFICATION_KINDS as Record<string, { noisy: boolean } | undefined>)[kind];
  return known ? known.noisy : true;
}
