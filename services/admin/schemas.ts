import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 date-time' });
const kind = z
  .string()
  .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/, 'must be a dotted kind such as auth.sign_in')
  .max(60);

/** An audit event as the admin routes present it. */
export const AuditEventSchema = z
  .object({
    at: z.string(),
    actor: z.string(),
    kind: z.string(),
    target: z.string(),
    outcome: z.string(),
    ip: z.string().nullable(),
    request_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEventBody = z.infer<typeof AuditEventSchema>;

export const AuditSearchRequestSchema = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .meta({ description: 'What to look for, in words and/or identifiers' }),
    from: isoDate.optional(),
    to: isoDate.optional(),
    actor: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .optional()
      .meta({ description: '`user:<id>`, `service`, `system`, …' }),
    kinds: z.array(kind).min(1).max(20).optional(),
    limit: z.number().int().min(1).max(100).default(20),
  })
  .meta({ id: 'AuditSearchRequest' });
export type AuditSearchRequest = z.infer<typeof AuditSearchRequestSchema>;

export const AuditSearchResponseSchema = z
  .object({
    hits: z.array(z.object({ score: z.number(), event: AuditEventSchema })),
    interpreted: z.object({
      texts: z.array(z.object({ text: z.string(), score: z.number() })),
      identifiers: z.array(z.string()),
    }),
    took_ms: z.number(),
  })
  .meta({ id: 'AuditSearchResponse' });

/** `30m`, `6h`, `7d`: up to 7 days. */
export const WindowSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,3}[mhd]$/, 'must be minutes, hours or days such as 30m, 6h, 7d')
  .meta({ description: 'Look-back window: `<n>m`, `<n>h` or `<n>d`, at most 7 days' });

export const PatternRequestSchema = z
  .strictObject({ window: WindowSchema.default('24h'), kinds: z.array(kind).min(1).max(20).optional() })
  .meta({ id: 'PatternRequest' });
export type PatternRequest = z.infer<typeof PatternRequestSchema>;

export const AnomalySchema = z
  .object({
    type: z.enum([
      'rate_burst',
      'heavy_actor',
      'failed_sign_in_run',
      'signature_reuse',
      'large_amount',
      'fast_flip',
      'new_account_like_old',
    ]),
    severity: z.enum(['low', 'medium', 'high']),
    score: z.number(),
    actor: z.string().nullable(),
    kind: z.string().nullable(),
    target: z.string().nullable(),
    count: z.number().int(),
    first_at: z.string(),
    last_at: z.string(),
    explanation: z.string(),
    evidence: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Anomaly' });
export type AnomalyBody = z.infer<typeof AnomalySchema>;

export const PatternResponseSchema = z
  .object({
    window: z.object({ from: z.string(), to: z.string() }),
    events_scanned: z.number().int(),
    truncated: z.boolean(),
    took_ms: z.number(),
    anomalies: z.array(AnomalySchema),
  })
  .meta({ id: 'PatternResponse' });

export const OperationsQueryRequestSchema = z
  .strictObject({ question: z.string().trim().min(3).max(300) })
  .meta({ id: 'OperationsQueryRequest' });

export const OperationsQueryResponseSchema = z
  .object({
    question: z.string(),
    interpreted: z.object({
      metric: z.string(),
      aggregation: z.enum(['count', 'sum', 'top']),
      window: z.object({ label: z.string(), from: z.string(), to: z.string() }),
      group_by: z.string().nullable(),
      query: z.string().meta({ description: 'The read-only query that was run, as text' }),
    }),
    answer: z.object({
      value: z.number().nullable(),
      rows: z.array(z.object({ key: z.string(), value: z.number() })),
    }),
    text: z.string(),
  })
  .meta({ id: 'OperationsQueryResponse' });

export const HealthFactorSchema = z.object({
  name: z.string(),
  value: z.number(),
  penalty: z.number(),
  max_penalty: z.number(),
  detail: z.string(),
});

export const InsightsSummarySchema = z
  .object({
    generated_at: z.string(),
    health: z.object({ score: z.number().int().min(0).max(100), factors: z.array(HealthFactorSchema) }),
    insights: z.array(z.object({ severity: z.enum(['info', 'warning', 'critical']), text: z.string() })),
  })
  .meta({ id: 'InsightsSummary' });

export const AreaStatusSchema = z.object({
  name: z.string(),
  state: z.enum(['up', 'degraded', 'down']),
  indexes: z.record(z.string(), z.number()),
  last_sync: z.string().nullable(),
  last_consolidation: z.string().nullable(),
  detail: z.string().nullable(),
});
export type AreaStatusBody = z.infer<typeof AreaStatusSchema>;

export const AdminStatusSchema = z
  .object({
    status: z.enum(['up', 'degraded', 'down']),
    areas: z.array(AreaStatusSchema),
    providers: z.array(z.object({ provider: z.string(), model: z.string(), state: z.string() })),
    monitor_url: z.string().meta({ description: 'The Colyseus monitor (admin sessions)' }),
  })
  .meta({ id: 'AdminBrainStatus' });

export const UserActivityParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit id'),
});
export const UserActivityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: isoDate.optional(),
});

export const ActivityEntrySchema = z.object({
  at: z.string(),
  area: z.enum(['sign-in', 'world', 'economy', 'social', 'memory', 'signer', 'tools', 'admin', 'other']),
  kind: z.string(),
  outcome: z.string(),
  summary: z.string(),
});
export type ActivityEntryBody = z.infer<typeof ActivityEntrySchema>;

export const UserActivitySchema = z
  .object({
    user: z.object({
      id: z.string(),
      roles: z.array(z.string()),
      tier: z.number().int(),
      created_at: z.string(),
    }),
    character: z
      .object({
        name: z.string(),
        level: z.number().int(),
        room: z.string(),
        quests_completed: z.number().int(),
      })
      .nullable(),
    counts: z.record(z.string(), z.number()),
    timeline: z.array(ActivityEntrySchema),
  })
  .meta({ id: 'UserActivity' });
