import type { ApiRoutes } from '../../../platform/http/routes';
import { userOf, type AuthGuard } from '../../../access/authGuard';
import { presentSession } from '../presenters';
import { SessionSchema } from '../schemas';
import type { EmailSignIn } from './emailSignIn';
import {
  EmailLoginRequestSchema,
  EmailRegisterRequestSchema,
  EmailRegisterResponseSchema,
  EmailVerifyRequestSchema,
} from './schemas';

const REGISTERED = {
  status: 'verification_sent' as const,
  detail: 'If the address can be registered, a verification email is on its way.',
};

/** Email-first sign-in routes; all answer 501 EMAIL_DISABLED without SMTP_URL. */
export function registerEmailRoutes(routes: ApiRoutes, email: EmailSignIn, guard: AuthGuard): void {
  routes.add({
    method: 'post',
    path: '/auth/email/register',
    summary: 'Register an email address (signed in: link it to the current account once verified)',
    description: 'Always 202 with the same body, whether or not the address is known.',
    tags: ['auth'],
    middleware: [guard.authenticate()],
    request: { body: EmailRegisterRequestSchema },
    responses: {
      202: { description: 'Verification mail sent if possible', schema: EmailRegisterResponseSchema },
    },
    handler: async ({ body, req }) => {
      await email.register(body.email, body.password, userOf(req)?.userId);
      return { status: 202, body: REGISTERED };
    },
  });

  routes.add({
    method: 'post',
    path: '/auth/email/verify',
    summary: 'Verify an address with the mailed single-use code; signs in',
    tags: ['auth'],
    request: { body: EmailVerifyRequestSchema },
    responses: { 200: { description: 'Verified and signed in', schema: SessionSchema } },
    handler: async ({ body }) => ({ status: 200, body: presentSession(await email.verify(body.code)) }),
  });

  routes.add({
    method: 'get',
    path: '/auth/email/verify',
    summary: 'Verify an address from the mailed link; signs in',
    tags: ['auth'],
    request: { query: EmailVerifyRequestSchema },
    responses: { 200: { description: 'Verified and signed in', schema: SessionSchema } },
    handler: async ({ query }) => ({ status: 200, body: presentSession(await email.verify(query.code)) }),
  });

  routes.add({
    method: 'post',
    path: '/auth/email/login',
    summary: 'Sign in with a verified email address and password',
    description: 'Unknown addresses and wrong passwords get the same 401 EMAIL_LOGIN_FAILED.',
    tags: ['auth'],
    request: { body: EmailLoginRequestSchema },
    responses: {
      200: { description: 'Signed in', schema: SessionSchema },
      401: { description: 'Invalid email or password' },
      403: { description: 'Address not verified yet' },
    },
    handler: async ({ body }) => ({
      status: 200,
      body: presentSession(await email.login(body.email, body.password)),
    }),
  });
}
