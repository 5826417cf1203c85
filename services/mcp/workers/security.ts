import { z } from 'zod';
import {
  AuditListSchema,
  AuditQuerySchema,
  ExportSchema,
  ScanResponseSchema,
  SubjectSchema,
  type SecurityService,
} from '../../brain';
import type { Principal } from '../../auth';
import type { ToolCall } from '../toolDefinition';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { callerKey } from '../toolAccess';
import { pageLimit } from './caller';

const audit = AuditQuerySchema.shape;

/** The memory audit record of a tool's read: the caller, no request id (the gateway's audit has it). */
const readerOf = (caller: Principal) => ({ actor: callerKey(caller), requestId: null, ip: null });

/**
 * The security worker: the `/brain/security` reads as tools for operators, admins and the service token (as the
 * routes): who did what with which memories, where secrets or personal data sit (never the values), and everything
 * kept about a subject. The writes (redact, erase) stay on the routes, behind a person.
 */
export function securityWorker(security: SecurityService): Worker {
  return {
    name: 'security',
    description: 'Memory security for operators: the memory audit, secret scans and subject exports.',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'security_memory_audit',
        title: 'Who did what with which memories',
        description:
          'The memory audit, newest first: who remembered, recalled, read, listed, forgot, exported, scanned or ' +
          'erased memories of which subject, and when. Filter by subject, actor, action and time; page with until ' +
          '(the last record’s at).',
        input: z.strictObject({
          subject: audit.subject,
          actor: audit.actor,
          action: audit.action,
          since: audit.since,
          until: audit.until,
          limit: pageLimit(500, 100),
        }),
        output: AuditListSchema,
        annotations: READ_ONLY,
        access: ACCESS.operator,
        handler: (input) => security.memoryAudit(input),
        summarise: ({ records }) =>
          records.length === 0
            ? 'No audit records.'
            : records
                .slice(0, 10)
                .map(
                  (record) =>
                    `${record.at} ${record.actor} ${record.action} ${record.subject} (${record.count})`,
                )
                .join('\n'),
      }),
      defineTool({
        name: 'security_scan',
        title: 'Find secrets and personal data',
        description:
          'Scans memories (one subject, or every subject) and by default the docs/code/tests corpus for private ' +
          'keys, mnemonics, API tokens and e-mail addresses. Answers where each finding is (memory or chunk, line, ' +
          'offset, length), never the value. Changes nothing; redaction is a route for a person.',
        input: z.strictObject({
          subject: SubjectSchema.optional().meta({ description: "One subject's memories (default: all)" }),
          include_corpus: z
            .boolean()
            .default(true)
            .meta({ description: 'Scan the corpus too (default true)' }),
          limit: pageLimit(10_000, 1000),
        }),
        output: ScanResponseSchema,
        annotations: READ_ONLY,
        access: ACCESS.operator,
        cost: 10,
        handler: ({ subject, include_corpus: includeCorpus, limit }, { caller }: ToolCall) =>
          security.scan({ subject, includeCorpus, limit }, readerOf(caller)),
        summarise: ({ findings }) =>
          findings.length === 0
            ? 'No findings.'
            : `${findings.length} findings: ` +
              findings
                .slice(0, 10)
                .map((finding) => `${finding.kind} in ${finding.memory_id ?? finding.source}:${finding.line}`)
                .join(', '),
      }),
      defineTool({
        name: 'security_export',
        title: 'Everything kept about a subject',
        description:
          "A subject's data: its memories (working tier included), its graph entities and facts, as the export " +
          'route answers it (recorded in the memory audit).',
        input: z.strictObject({ subject: SubjectSchema }),
        output: ExportSchema,
        annotations: READ_ONLY,
        access: ACCESS.operator,
        cost: 5,
        handler: ({ subject }, { caller }) => security.exportSubject(subject, readerOf(caller)),
        summarise: (data) =>
          `${data.subject}: ${data.memories.length} memories, ${data.working.length} working turns, ` +
          `${data.entities.length} entities, ${data.facts.length} facts.`,
      }),
    ],
  };
}
