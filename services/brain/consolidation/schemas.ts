import { z } from 'zod';
import { CONSOLIDATION_STEPS } from '../../../models/ConsolidationRun';

const timestamp = z.iso.datetime();

export const ConsolidationRunSchema = z
  .object({
    id: z.string(),
    trigger: z.enum(['scheduled', 'catch_up', 'manual']),
    slot: timestamp.nullable().meta({ description: 'The nightly slot it serves (null for manual runs)' }),
    status: z.enum(['running', 'succeeded', 'failed']),
    started_at: timestamp,
    finished_at: timestamp.nullable(),
    duration_ms: z.number().nullable(),
    steps_done: z.array(z.enum(CONSOLIDATION_STEPS)),
    counts: z.record(z.string(), z.number()),
    error: z.string().nullable(),
    attempts: z.number().int(),
  })
  .meta({ id: 'ConsolidationRun' });

export const RunListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  before: timestamp.optional().meta({ description: 'Runs started before this time (paging)' }),
});

export const RunListSchema = z
  .object({ runs: z.array(ConsolidationRunSchema) })
  .meta({ id: 'ConsolidationRunList' });
