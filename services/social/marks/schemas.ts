import { z } from 'zod';
import { IdentitySchema, PlatformSchema, RelationshipSchema, SocialUserIdSchema } from '../schemas';

/** Who marks whom: `platform`/`user_id` (the caller's own identity for a user) marks the target. */
export const MarkRequestSchema = z.object({
  platform: PlatformSchema,
  user_id: SocialUserIdSchema,
  target_platform: PlatformSchema,
  target_user_id: SocialUserIdSchema,
  reason: z.string().max(500).optional(),
});

export const MarkSchema = z
  .object({
    observer: IdentitySchema,
    subject: IdentitySchema,
    trust: z.number().int().min(0).max(100),
    trust_before: z.number().int().min(0).max(100),
    relationship: RelationshipSchema,
    marks: z.array(z.enum(['fren', 'foe', 'block'])),
  })
  .meta({ id: 'SocialMark' });

export type MarkRequest = z.infer<typeof MarkRequestSchema>;
