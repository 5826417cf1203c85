import { z } from 'zod';
import { MemoryRecordSchema, SubjectSchema } from '../memory/schemas';
import { EntitySchema, FactSchema } from '../graph/schemas';

const timestamp = z.iso.datetime();
const ACTIONS = [
  'remember',
  'recall',
  'read',
  'list',
  'forget',
  'export',
  'erase',
  'scan',
  'redact',
] as const;

export const AuditQuerySchema = z.object({
  subject: SubjectSchema.optional(),
  actor: z.string().max(100).optional(),
  action: z.enum(ACTIONS).optional(),
  since: timestamp.optional(),
  until: timestamp
    .optional()
    .meta({ description: 'Records strictly before this time (paging: the last record’s at)' }),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export const AuditRecordSchema = z
  .object({
    at: timestamp,
    actor: z.string(),
    subject: z.string(),
    action: z.enum(ACTIONS),
    memory_ids: z.array(z.string()),
    count: z.number().int(),
    request_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'MemoryAuditRecord' });

export const AuditListSchema = z
  .object({ records: z.array(AuditRecordSchema) })
  .meta({ id: 'MemoryAuditList' });

export const ScanRequestSchema = z
  .object({
    subject: SubjectSchema.optional().meta({
      description: "One subject's memories (default: every subject's)",
    }),
    include_corpus: z
      .boolean()
      .optional()
      .meta({ description: 'Scan the docs/code/tests corpus too (default true)' }),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .meta({ id: 'SecurityScanRequest' });

const SecretKindSchema = z.enum(['private_key', 'mnemonic', 'api_token', 'email']);

export const FindingSchema = z
  .object({
    kind: SecretKindSchema,
    where: z.enum(['memory', 'corpus']),
    memory_id: z.string().nullable(),
    subject: z.string().nullable(),
    source: z.string().nullable(),
    chunk_id: z.string().nullable(),
    line: z.number().int(),
    start: z.number().int(),
    length: z.number().int(),
  })
  .meta({ id: 'SecurityFinding', description: 'Where a secret or personal datum is; never the value' });

export const ScanResponseSchema = z
  .object({ findings: z.array(FindingSchema) })
  .meta({ id: 'SecurityScanResponse' });

export const RedactRequestSchema = z
  .object({
    memory_ids: z.array(z.string().min(1).max(100)).min(1).max(1000),
    subject: SubjectSchema.optional(),
  })
  .meta({ id: 'SecurityRedactRequest' });

export const RedactResponseSchema = z
  .object({
    redacted: z.array(
      z.object({ memory_id: z.string(), subject: z.string(), kinds: z.array(SecretKindSchema) }),
    ),
  })
  .meta({ id: 'SecurityRedactResponse' });

export const ExportQuerySchema = z.object({ subject: SubjectSchema.optional() });

export const ExportSchema = z
  .object({
    subject: z.string(),
    exported_at: timestamp,
    memories: z.array(MemoryRecordSchema),
    working: z.array(MemoryRecordSchema),
    entities: z.array(EntitySchema),
    facts: z.array(FactSchema),
  })
  .meta({ id: 'SubjectExport' });

export const SubjectParamsSchema = z.object({ subject: SubjectSchema });

export const ErasureReceiptSchema = z
  .object({
    receipt_id: z.string(),
    subject: z.string(),
    erased_at: timestamp,
    erased: z.object({
      memories: z.number().int(),
      working: z.number().int(),
      vectors: z.number().int(),
      entities: z.number().int(),
      mentions: z.number().int(),
      relations: z.number().int(),
      facts: z.number().int(),
    }),
  })
  .meta({ id: 'ErasureReceipt' });
