import type { Request } from 'express';
import type { Connection } from 'mongoose';
import type { ApiRoutes } from '../../../platform/http/routes';
import { userOf, type AuthGuard } from '../../../access/authGuard';
import type { MemoryAuditLog } from '../memory/memoryAuditLog';
import type { MemoryKeeper } from '../memory/memoryKeeper';
import { auditContext, subjectOf } from '../memory/subjectAccess';
import { operatorOrService } from './operatorOrService';
import { presentAuditRecord, presentExport, presentReceipt } from './presenters';
import {
  AuditListSchema,
  AuditQuerySchema,
  ErasureReceiptSchema,
  ExportQuerySchema,
  ExportSchema,
  RedactRequestSchema,
  RedactResponseSchema,
  ScanRequestSchema,
  ScanResponseSchema,
  SubjectParamsSchema,
} from './schemas';
import { SecretSweep } from './secretSweep';
import type { SubjectEraser } from './subjectEraser';

/** What the security routes need. */
export interface SecurityRouteDependencies {
  memory: MemoryKeeper;
  audit: MemoryAuditLog;
  eraser: SubjectEraser;
  guard: Pick<AuthGuard, 'requireRole' | 'requireBrainAuth'>;
  mongo: Connection;
}

/** Operators, admins and the service token may export any subject; other users only their own. */
function exportSubject(req: Request, requested: string | undefined): string {
  const user = userOf(req);
  const privileged = !user || user.roles.some((role) => role === 'operator' || role === 'admin');
  return privileged && requested ? requested : subjectOf(req, requested);
}

/** SPEC 4.2 `/brain/security/...`: memory audit, secret scan and redaction, subject export and erasure. */
export function registerSecurityRoutes(routes: ApiRoutes, deps: SecurityRouteDependencies): void {
  const { audit, eraser, memory } = deps;
  const sweep = new SecretSweep(memory, deps.mongo);
  const privileged = {
    tags: ['brain-security'],
    security: 'admin' as const,
    middleware: operatorOrService(deps.guard),
  };

  routes.add({
    ...privileged,
    method: 'get',
    path: '/brain/security/audit',
    summary: 'Who remembered, recalled, read, listed, forgot, exported or erased which memories, and when',
    request: { query: AuditQuerySchema },
    responses: { 200: { description: 'Audit records, newest first', schema: AuditListSchema } },
    handler: async ({ query }) => {
      const records = await audit.query({
        ...query,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        limit: query.limit ?? 100,
      });
      return { status: 200, body: { records: records.map(presentAuditRecord) } };
    },
  });

  routes.add({
    ...privileged,
    method: 'post',
    path: '/brain/security/scan',
    summary: 'Find private keys, mnemonics, API tokens and e-mail addresses in memories and the corpus',
    request: { body: ScanRequestSchema },
    responses: { 200: { description: 'Findings (where, never the value)', schema: ScanResponseSchema } },
    handler: async ({ body, req }) => {
      const findings = await sweep.scan({
        subject: body.subject,
        corpus: body.include_corpus ?? true,
        limit: body.limit ?? 1000,
      });
      audit.record({
        ...auditContext(req),
        subject: body.subject ?? '*',
        action: 'scan',
        count: findings.length,
        details: { findings: findings.length },
      });
      return { status: 200, body: { findings } };
    },
  });

  routes.add({
    ...privileged,
    method: 'post',
    path: '/brain/security/redact',
    summary: 'Redact the findings of the given memories in place (re-indexed)',
    request: { body: RedactRequestSchema },
    responses: { 200: { description: 'What was redacted', schema: RedactResponseSchema } },
    handler: async ({ body, req }) => {
      const redacted = await sweep.redactMemories(body.memory_ids, body.subject);
      for (const item of redacted)
        audit.record({
          ...auditContext(req),
          subject: item.subject,
          action: 'redact',
          memoryIds: [item.memory_id],
          details: { kinds: item.kinds },
        });
      return { status: 200, body: { redacted } };
    },
  });

  routes.add({
    method: 'get',
    path: '/brain/security/export',
    summary: 'Everything kept about a subject (users: their own; operators: any)',
    tags: ['brain-security'],
    security: 'bearer',
    middleware: deps.guard.requireBrainAuth,
    request: { query: ExportQuerySchema },
    responses: { 200: { description: "The subject's data", schema: ExportSchema } },
    handler: async ({ query, req }) => {
      const subject = exportSubject(req, query.subject);
      const data = await eraser.export(subject);
      audit.record({
        ...auditContext(req),
        subject,
        action: 'export',
        count: data.memories.length + data.working.length,
      });
      return { status: 200, body: presentExport(subject, new Date(memory.options.clock.now()), data) };
    },
  });

  routes.add({
    ...privileged,
    method: 'delete',
    path: '/brain/security/subjects/:subject',
    summary: 'Erase everything about a subject (memories in every store, graph scope); answers a receipt',
    request: { params: SubjectParamsSchema },
    responses: { 200: { description: 'The erasure receipt', schema: ErasureReceiptSchema } },
    handler: async ({ params, req }) => {
      const receipt = await eraser.erase(params.subject);
      audit.record({
        ...auditContext(req),
        subject: params.subject,
        action: 'erase',
        count: receipt.erased.memories + receipt.erased.working,
        details: { receipt_id: receipt.receipt_id, ...receipt.erased },
      });
      return { status: 200, body: presentReceipt(receipt) };
    },
  });
}
