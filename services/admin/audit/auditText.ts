import { createHash } from 'node:crypto';
import type { AuditEvent } from '../../../models/AuditEvent';

/**
 * What each kind of audit event is about, in words people search with. The offline embedder is lexical, so these
 * descriptions are what lets "who failed to log in" meet `auth.sign_in_failed`.
 */
const KIND_WORDS: Record<string, string> = {
  'auth.sign_in': 'sign in login session authentication succeeded',
  'auth.sign_in_failed': 'sign in login authentication failed rejected denied wrong credential',
  'auth.roles_changed': 'role change permission grant revoke admin operator creator',
  'economy.grant': 'grant money coins currency credit mint reward',
  'economy.transfer': 'transfer money coins currency payment sent',
  'economy.hold': 'hold reserve money coins escrow forge',
  'marketplace.sale': 'sale purchase buy sell marketplace listing trade',
  'signer.request': 'signature signing request forge claim mint voucher',
  'signer.reuse_alert': 'signature reuse replay alert attack nonce already used',
  'mcp.tool_call': 'tool call agent mcp gateway',
  'memory.forget': 'memory forget delete erase',
  'memory.erase': 'memory erase delete forget privacy',
  'social.link': 'social link account platform connect',
};

/** Detail keys whose string values describe an event without identifying anyone (kept in its searchable text). */
const TEXT_DETAILS = ['code', 'method', 'reason', 'memo', 'currency', 'alert', 'platform', 'roles', 'type'];

/** A target worth searching by words (a tool or a route name), not an identifier (ids, addresses, hashes). */
function isWordy(target: string): boolean {
  return /^[a-z][a-z0-9_.:/-]*$/i.test(target) && !/[0-9a-f]{12,}/i.test(target) && !/\d{4,}/.test(target);
}

function spaced(text: string): string {
  return text.replace(/[._:/-]+/g, ' ').toLowerCase();
}

/**
 * The searchable text of an event: its kind (spelt out and described), outcome, a wordy target and the descriptive
 * details. Identifiers are left out on purpose, so events of one sort share one text (one embedding).
 */
export function auditText(event: Pick<AuditEvent, 'kind' | 'target' | 'outcome' | 'details'>): string {
  const parts = [spaced(event.kind), KIND_WORDS[event.kind] ?? '', `outcome ${event.outcome}`];
  if (event.target && isWordy(event.target)) parts.push(spaced(event.target));
  for (const key of TEXT_DETAILS) {
    const value = event.details[key];
    if (typeof value === 'string' && value.length <= 80) parts.push(spaced(value));
    else if (Array.isArray(value)) parts.push(value.filter((v) => typeof v === 'string').join(' '));
  }
  return parts.filter(Boolean).join(' ');
}

/** The signature of a searchable text: 32 hex characters of its SHA-256. */
export function signatureOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Hours since the epoch of a time (the search's walking unit). */
export function hourOf(at: Date | number): number {
  return Math.floor(new Date(at).getTime() / 3_600_000);
}

const SECRET_KEY =
  /token|secret|password|passphrase|private|mnemonic|api[-_]?key|authorization|cookie|signature/i;
const MAX_STRING = 256;
const MAX_DEPTH = 4;
const MAX_ITEMS = 20;

/**
 * A copy of a value fit for the audit log: values under secret-looking keys replaced by `[redacted]`, long strings
 * cut to 256 characters, deep or long structures summarised. Every event's details pass through it.
 */
export function redactArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => redactArguments(item, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more`] : items;
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, entry]) => [
      key,
      SECRET_KEY.test(key) ? '[redacted]' : redactArguments(entry, depth + 1),
    ]),
  );
}

/** An event's details fit for the audit log: each value redacted as `redactArguments` does, secret keys dropped. */
export function redactDetails(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [
      key,
      SECRET_KEY.test(key) ? '[redacted]' : redactArguments(value),
    ]),
  );
}
