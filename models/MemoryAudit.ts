import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** What was done to memories or documents: read, write, forget, or a security action. */
export type MemoryAuditAction =
  'remember' | 'recall' | 'read' | 'list' | 'forget' | 'export' | 'erase' | 'scan' | 'redact';

/**
 * One access to memories (collection `memoryaudits`), read by `GET /brain/security/audit`: who (`actor`:
 * `user:<id>` or `service`), which subject, what, which memory ids, when. Never the content.
 */
export interface MemoryAuditDocument {
  at: Date;
  actor: string;
  subject: string;
  action: MemoryAuditAction;
  memory_ids: string[];
  /** Count of items touched (memory ids are capped at 100 per record). */
  count: number;
  request_id: string | null;
  details: Record<string, unknown>;
}

const memoryAuditSchema = new Schema<MemoryAuditDocument>(
  {
    at: { type: Date, required: true },
    actor: { type: String, required: true },
    subject: { type: String, required: true },
    action: { type: String, required: true },
    memory_ids: { type: [String], default: [] },
    count: { type: Number, required: true, min: 0 },
    request_id: { type: String, default: null },
    details: { type: Schema.Types.Mixed, default: {} },
  },
  { versionKey: false },
);
memoryAuditSchema.index({ at: -1 });
memoryAuditSchema.index({ subject: 1, at: -1 });
memoryAuditSchema.index({ actor: 1, at: -1 });

/** The MemoryAudit model on `connection`. */
export const memoryAuditModel = (connection: Connection) =>
  modelFor(connection, 'MemoryAudit', memoryAuditSchema);
