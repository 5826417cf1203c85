import { z } from 'zod';

/** `POST /auth/oidc/start`: where to send the browser, and the state that ties the callback to this login. */
export const OidcStartSchema = z
  .object({ authorization_url: z.url(), state: z.string() })
  .meta({ id: 'OidcStart' });

/** The provider's redirect: `code` after a login, or `error` (e.g. access_denied) when the user or provider refused. */
export const OidcCallbackQuerySchema = z
  .object({
    code: z.string().min(1).max(2048).optional(),
    error: z.string().min(1).max(256).optional(),
    error_description: z.string().max(2048).optional(),
    state: z.string().min(1).max(512),
  })
  .refine((query) => query.code !== undefined || query.error !== undefined, {
    error: 'expected code or error',
    path: ['code'],
  });

export type OidcStartBody = z.infer<typeof OidcStartSchema>;
export type OidcCallbackQuery = z.infer<typeof OidcCallbackQuerySchema>;
