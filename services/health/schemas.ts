import { z } from 'zod';

export const LivenessSchema = z
  .object({ status: z.literal('ok'), uptimeSeconds: z.number() })
  .meta({ id: 'Liveness' });

export const CheckResultSchema = z
  .object({
    name: z.string(),
    status: z.enum(['up', 'down']),
    latencyMs: z.number(),
    error: z.string().optional(),
    fallback: z.string().optional().meta({ description: 'What serves while this store is down' }),
  })
  .meta({ id: 'StoreCheck' });

export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'degraded']),
    degraded: z
      .array(z.string())
      .optional()
      .meta({ description: 'Stores down, served by in-process fallbacks' }),
    checks: z.array(CheckResultSchema),
  })
  .meta({ id: 'Readiness' });

export type Liveness = z.infer<typeof LivenessSchema>;
export type Readiness = z.infer<typeof ReadinessSchema>;
