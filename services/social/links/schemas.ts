import { z } from 'zod';
import { IdentitySchema, LinkedIdentitySchema, SocialUserIdSchema } from '../schemas';

/** Only chat and game accounts are linked into a web user. */
export const LinkablePlatformSchema = z.enum(['discord', 'minecraft']).meta({ id: 'SocialLinkablePlatform' });

const linkable = { platform: LinkablePlatformSchema, user_id: SocialUserIdSchema };

export const LinkCodeRequestSchema = z.object(linkable);

export const LinkCodeSchema = z
  .object({
    code: z.string().meta({ description: 'One-time code, 8 characters; post it through the other side' }),
    expires_at: z.string(),
  })
  .meta({ id: 'SocialLinkCode' });

export const LinkRequestSchema = z.object({
  ...linkable,
  proof: z
    .string()
    .trim()
    .min(4)
    .max(32)
    .optional()
    .meta({ description: 'The one-time code from /social/brain/link/code' }),
  web_user_id: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit user id')
    .optional()
    .meta({ description: 'Service token only: link directly to this user' }),
});

export const UnlinkRequestSchema = z.object(linkable);

export const LinkSchema = z
  .object({
    identity: LinkedIdentitySchema,
    person: IdentitySchema,
    linked: z
      .boolean()
      .meta({ description: 'False when it was already linked to this person (nothing changed)' }),
  })
  .meta({ id: 'SocialLink' });
