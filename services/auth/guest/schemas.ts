import { z } from 'zod';

/** Display-name rules: 3-24 characters, letters, digits and single spaces, no leading or trailing space. */
export const DisplayNameSchema = z
  .string()
  .trim()
  .min(3, { error: 'expected 3 to 24 characters' })
  .max(24, { error: 'expected 3 to 24 characters' })
  .regex(/^[\p{L}\p{N}]+( [\p{L}\p{N}]+)*$/u, {
    error: 'expected letters and digits separated by single spaces',
  })
  .meta({
    description: '3-24 letters, digits and spaces; unique case-insensitively',
    example: 'Ann of Thornwick',
  });

/** `POST /auth/guest`: no body, or a display name to play under. */
export const GuestSignInRequestSchema = z
  .strictObject({ display_name: DisplayNameSchema.optional() })
  .optional()
  .meta({ id: 'GuestSignInRequest' });

const timestamp = z.iso.datetime();

/** A guest's session: the bearer token and the name the world shows. */
export const GuestSessionSchema = z
  .object({
    token: z.string(),
    user_id: z.string(),
    method: z.literal('guest'),
    display_name: z.string(),
    issued_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: 'GuestSession' });

/** `PUT /auth/me`: choose a display name. */
export const DisplayNameRequestSchema = z
  .strictObject({ display_name: DisplayNameSchema })
  .meta({ id: 'DisplayNameRequest' });

/** The user after a display-name change. */
export const DisplayNameResponseSchema = z
  .object({ id: z.string(), display_name: z.string() })
  .meta({ id: 'DisplayName' });

export type GuestSignInRequest = z.infer<typeof GuestSignInRequestSchema>;
export type GuestSessionBody = z.infer<typeof GuestSessionSchema>;
export type DisplayNameBody = z.infer<typeof DisplayNameResponseSchema>;
