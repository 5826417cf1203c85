import type { z } from 'zod';
import type { Connection } from 'mongoose';
import type { MemoryAuditLog } from '../memory/memoryAuditLog';
import type { MemoryKeeper } from '../memory/memoryKeeper';
import { presentAuditRecord, presentExport } from './presenters';
import type { AuditListSchema, AuditQuerySchema, ExportSchema, ScanResponseSchema } from './schemas';
import { SecretSweep } from './secretSweep';
import type { SubjectEraser } from './subjectEraser';

/** Who reads, for the memory audit log: `user:<id>` or `service`, and the request. */
export interface SecurityReader {
  actor: string;
  requestId: string | null;
  ip: string | null;
}

/**
 * The `/brain/security` reads as other areas (the MCP gateway) call them: the memory audit, the secret scan
 * (findings: where, never the value) and a subject's export, with the same commands, presenters and memory-audit
 * records as the routes. Callers check who may read (operators, admins and the service token); the writes (redact,
 * erase) stay on the routes.
 */
export interface SecurityService {
  memoryAudit(query: z.infer<typeof AuditQuerySchema>): Promise<z.infer<typeof AuditListSchema>>;
  scan(
    options: { subject?: string; includeCorpus: boolean; limit: number },
    reader: SecurityReader,
  ): Promise<z.infer<typeof ScanResponseSchema>>;
  exportSubject(subject: string, reader: SecurityReader): Promise<z.infer<typeof ExportSchema>>;
}

/** The service over the memory keeper, its audit log, the eraser (exports) and MongoDB (the corpus scan). */
export function securityService(deps: {
  memory: MemoryKeeper;
  audit: MemoryAuditLog;
  eraser: SubjectEraser;
  mongo: Connection;
}): SecurityService {
  const sweep = new SecretSweep(deps.memory, deps.mongo);
  return {
    memoryAudit: async (query) => {
      const records = await deps.audit.query({
        ...query,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        limit: query.limit ?? 100,
      });
      return { records: records.map(presentAuditRecord) };
    },
    scan: async (options, reader) => {
      const findings = await sweep.scan({
        subject: options.subject,
        corpus: options.includeCorpus,
        limit: options.limit,
      });
      deps.audit.record({
        ...reader,
        subject: options.subject ?? '*',
        action: 'scan',
        count: findings.length,
        details: { findings: findings.length },
      });
      return { findings };
    },
    exportSubject: async (subject, reader) => {
      const data = await deps.eraser.export(subject);
      deps.audit.record({
        ...reader,
        subject,
        action: 'export',
        count: data.memories.length + data.working.length,
      });
      return presentExport(subject, new Date(deps.memory.options.clock.now()), data);
    },
  };
}
