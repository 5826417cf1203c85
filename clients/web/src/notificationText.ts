/** A notification as `GET /notifications` and the socket present it. */
export interface PlayerNotification {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  created_at: string;
  read_at: string | null;
}

/** How a social identity key (`minecraft:Steve`, `discord:1234`, `web:<user id>`) reads to a player. */
function personOf(key: unknown): string {
  const [platform, ...rest] = String(key).split(':');
  const name = rest.join(':');
  if (platform === 'minecraft') return `${name} (block game)`;
  if (platform === 'discord') return `${name} (chat)`;
  return platform === 'web' ? 'a player' : String(key);
}

/** Words for the kinds the platform publishes (services/notifications/notificationKinds.ts); others show their kind. */
export function notificationText(n: PlayerNotification): string {
  const p = n.payload;
  const reason = typeof p.reason === 'string' && p.reason ? `: “${p.reason}”` : '.';
  switch (n.kind) {
    case 'economy.transfer_received':
      return `You received ${String(p.amount)} ${String(p.currency)} coins.`;
    case 'marketplace.sale':
      return `Your listing sold for ${String(p.amount)} ${String(p.currency)}.`;
    case 'marketplace.purchase':
      return `You bought a listing for ${String(p.amount)} ${String(p.currency)}.`;
    case 'companion.bond':
      return `Your bond with ${String(p.name)} grew to ${String(p.bond)}.`;
    case 'security.new_wallet':
      return `A new wallet was linked to your account: ${String(p.address)}. Not you? Sign out everywhere.`;
    case 'social.fren':
      return `${personOf(p.by)} marked you as a fren${reason}`;
    case 'social.foe':
      return `${personOf(p.by)} marked you as a foe${reason}`;
    case 'social.link_confirmed':
      return `Your ${p.platform === 'discord' ? 'chat' : 'block-game'} account ${String(p.user_id)} is now linked to you. Not you? Unlink it.`;
    case 'quests.recommendations': {
      const names = Array.isArray(p.quests) ? p.quests.map((q: { name?: unknown }) => String(q.name)) : [];
      return names.length ? `Quests for you next: ${names.join(', ')}.` : 'New quests are waiting for you.';
    }
    default:
      return n.kind.replace(/[._]/g, ' ');
  }
}
