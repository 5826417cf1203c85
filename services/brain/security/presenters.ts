import type { MemoryAuditDocument } from '../../../models/MemoryAudit';
import { presentEntity, presentFact } from '../graph/presenters';
import { recordOf } from '../memory/memoryKeeper';
import { presentMemory } from '../memory/presenters';
import type { ErasureReceipt, SubjectEraser } from './subjectEraser';

/** An audit record as GET /brain/security/audit answers it. */
export function presentAuditRecord(record: MemoryAuditDocument) {
  return {
    at: record.at.toISOString(),
    actor: record.actor,
    subject: record.subject,
    action: record.action,
    memory_ids: record.memory_ids,
    count: record.count,
    request_id: record.request_id,
    // Older records and some actions carry none: the contract says an object, so an empty one.
    details: record.details ?? {},
  };
}

/** A subject's export. */
export function presentExport(subject: string, at: Date, data: Awaited<ReturnType<SubjectEraser['export']>>) {
  return {
    subject,
    exported_at: at.toISOString(),
    memories: data.memories.map((doc) => presentMemory(recordOf(doc))),
    working: data.working.map(presentMemory),
    entities: data.entities.map(presentEntity),
    facts: data.facts.map(presentFact),
  };
}

/** An erasure receipt. */
export function presentReceipt(receipt: ErasureReceipt) {
  return { ...receipt, erased_at: receipt.erased_at.toISOString() };
}
