import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * One audited action, the shape every area records (`audit_events`): who acted, what kind of action, on what, with
 * what outcome, from where. Never secrets: `details` holds kind-specific facts (amounts, codes, redacted arguments).
 */
export interface AuditEvent {
  at: Date;
  /** Who acted: `user:<id>`, `address:<0x…>`, `service` or `system`. */
  actor: string;
  /** What kind of action, dotted by area: `auth.sign_in`, `economy.grant`, `mcp.tool_call`, … */
  kind: string;
  /** What it acted on: a user, an account, a tool, a listing (empty when nothing in particular). */
  target: string;
  /** `ok` or why not: `failed`, `refused`, `denied`, `invalid`, `rate_limited`, `unavailable`, `error`, `alert`. */
  outcome: string;
  ip: string | null;
  request_id: string | null;
  /** Kind-specific facts; never secrets. */
  details: Record<string, unknown>;
}

/**
 * The port areas write the audit log through (`record` never throws and never waits). The platform's audit log
 * (services/admin/audit) implements it; areas built without it take it as optional.
 */
export interface AuditRecorder {
  record(event: AuditEvent): void;
}

/**
 * A stored audit event. `hour` (hours since the epoch) and `sig` (the hash of the event's searchable text, see
 * services/admin/audit/auditText.ts) let semantic search walk time backwards through an index of equalities.
 */
export interface AuditEventRecord extends AuditEvent {
  hour: number;
  sig: string;
}

const auditEventSchema = new Schema<AuditEventRecord>(
  {
    at: { type: Date, required: true },
    actor: { type: String, required: true },
    kind: { type: String, required: true },
    target: { type: String, default: '' },
    outcome: { type: String, required: true },
    ip: { type: String, default: null },
    request_id: { type: String, default: null },
    details: { type: Schema.Types.Mixed, default: {} },
    hour: { type: Number, required: true },
    sig: { type: String, required: true },
  },
  { versionKey: false, collection: 'audit_events', minimize: false },
);
// Time range; one actor's timeline; one kind (and target) over time; semantic search by signature and hour.
auditEventSchema.index({ at: -1 });
auditEventSchema.index({ actor: 1, at: -1 });
auditEventSchema.index({ kind: 1, target: 1, at: -1 });
auditEventSchema.index({ sig: 1, hour: -1 });

/** The `audit_events` collection on `connection`. */
export const auditEventModel = (connection: Connection) =>
  modelFor(connection, 'AuditEvent', auditEventSchema);

/**
 * One distinct searchable text of audit events (`audit_signatures`): embedded once, however many events share it,
 * so semantic search compares a query with thousands of texts, not millions of events.
 */
export interface AuditSignatureRecord {
  _id: string;
  text: string;
  kind: string;
  count: number;
  first_seen: Date;
  last_seen: Date;
}

const auditSignatureSchema = new Schema<AuditSignatureRecord>(
  {
    _id: { type: String, required: true },
    text: { type: String, required: true },
    kind: { type: String, required: true },
    count: { type: Number, required: true },
    first_seen: { type: Date, required: true },
    last_seen: { type: Date, required: true },
  },
  { versionKey: false, collection: 'audit_signatures' },
);

/** The `audit_signatures` collection on `connection`. */
export const auditSignatureModel = (connection: Connection) =>
  modelFor(connection, 'AuditSignature', auditSignatureSchema);
