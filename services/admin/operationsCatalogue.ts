/** Where a catalogue metric's figures come from: audit events of some kinds, or the users collection. */
export type MetricSource =
  { collection: 'audit_events'; kinds: string[]; outcome?: string } | { collection: 'users' };

/** One metric an operations question may ask about. */
export interface CatalogueMetric {
  name: string;
  description: string;
  /** Phrases that name it (lowercase); the longest phrase found in a question wins. */
  phrases: string[];
  source: MetricSource;
  /** Whether amounts (`details.amount`) can be summed. */
  summable: boolean;
  /** What "which …" groups by: by default the actor; some metrics offer others by words in the question. */
  groups: Array<{ field: string; label: string; words?: RegExp }>;
}

const BY_ACTOR = { field: 'actor', label: 'actor' };

/**
 * The fixed catalogue of the operations query: the only figures it can read. Every metric is a count (and where
 * it has amounts, a sum) over a time window, optionally ranked by a grouping field; nothing else is executable.
 */
export const OPERATIONS_CATALOGUE: CatalogueMetric[] = [
  {
    name: 'failed_sign_ins',
    description: 'sign-ins refused (auth.sign_in_failed)',
    phrases: [
      'failed sign-in',
      'failed sign in',
      'failed signin',
      'failed login',
      'sign-ins failed',
      'sign ins failed',
      'logins failed',
      'sign-in failure',
      'login failure',
      'failed to sign in',
      'failed to log in',
    ],
    source: { collection: 'audit_events', kinds: ['auth.sign_in_failed'] },
    summable: false,
    groups: [
      { field: 'ip', label: 'client address', words: /\b(ips?|addresses|from where)\b/ },
      { field: 'target', label: 'identity' },
    ],
  },
  {
    name: 'sign_ins',
    description: 'successful sign-ins (auth.sign_in)',
    phrases: ['sign-in', 'sign in', 'signin', 'signed in', 'login', 'logged in', 'log in'],
    source: { collection: 'audit_events', kinds: ['auth.sign_in'] },
    summable: false,
    groups: [BY_ACTOR],
  },
  {
    name: 'role_changes',
    description: 'role changes by admins (auth.roles_changed)',
    phrases: ['role change', 'roles changed', 'role', 'roles', 'permission'],
    source: { collection: 'audit_events', kinds: ['auth.roles_changed'] },
    summable: false,
    groups: [{ field: 'target', label: 'user', words: /\b(users?|whose)\b/ }, BY_ACTOR],
  },
  {
    name: 'grants',
    description: 'currency grants (economy.grant)',
    phrases: ['grant', 'granted', 'minted', 'rewards'],
    source: { collection: 'audit_events', kinds: ['economy.grant'] },
    summable: true,
    groups: [{ field: 'target', label: 'account', words: /\b(received|got|recipients?)\b/ }, BY_ACTOR],
  },
  {
    name: 'transfers',
    description: 'transfers between users (economy.transfer)',
    phrases: ['transfer', 'transferred', 'sent', 'payments'],
    source: { collection: 'audit_events', kinds: ['economy.transfer'] },
    summable: true,
    groups: [{ field: 'target', label: 'recipient', words: /\b(received|recipients?)\b/ }, BY_ACTOR],
  },
  {
    name: 'sales',
    description: 'marketplace sales (marketplace.sale)',
    phrases: ['sale', 'sold', 'sell', 'seller', 'bought', 'buyer', 'purchase', 'marketplace'],
    source: { collection: 'audit_events', kinds: ['marketplace.sale'] },
    summable: true,
    groups: [
      { field: 'actor', label: 'buyer', words: /\b(bought|buyers?|purchased|spent)\b/ },
      { field: 'details.seller', label: 'seller' },
    ],
  },
  {
    name: 'signature_requests',
    description: 'contract signature requests (signer.request)',
    phrases: ['signature request', 'signatures', 'signature', 'forge start', 'mint'],
    source: { collection: 'audit_events', kinds: ['signer.request'] },
    summable: false,
    groups: [{ field: 'target', label: 'address' }],
  },
  {
    name: 'reuse_alerts',
    description: 'signature reuse alerts (signer.reuse_alert)',
    phrases: ['reuse alert', 'reuse', 'replay', 'replays'],
    source: { collection: 'audit_events', kinds: ['signer.reuse_alert'] },
    summable: false,
    groups: [{ field: 'target', label: 'address' }],
  },
  {
    name: 'tool_calls',
    description: 'MCP tool calls (mcp.tool_call)',
    phrases: ['tool call', 'tool calls', 'tools', 'tool', 'mcp', 'agent'],
    source: { collection: 'audit_events', kinds: ['mcp.tool_call'] },
    summable: false,
    groups: [{ field: 'target', label: 'tool', words: /\b(tools?|which tool)\b/ }, BY_ACTOR],
  },
  {
    name: 'new_users',
    description: 'accounts created (users)',
    phrases: [
      'new user',
      'new users',
      'new account',
      'accounts created',
      'registrations',
      'signups',
      'sign-ups',
      'sign ups',
    ],
    source: { collection: 'users' },
    summable: false,
    groups: [],
  },
  {
    name: 'audit_events',
    description: 'every audited action',
    phrases: ['audit event', 'audit events', 'audited', 'events', 'actions'],
    source: { collection: 'audit_events', kinds: [] },
    summable: false,
    groups: [{ field: 'kind', label: 'kind', words: /\b(kinds?|types?)\b/ }, BY_ACTOR],
  },
];
