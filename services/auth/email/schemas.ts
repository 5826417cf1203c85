import { z } from 'zod';

const email = z
  .email({ error: 'expected an email address' })
  .max(254)
  .transform((value) => value.trim().toLowerCase());

export const EmailRegisterRequestSchema = z
  .object({
    email,
    password: z.string().min(10, { error: 'expected at least 10 characters' }).max(256),
  })
  .meta({ id: 'EmailRegisterRequest' });

export const EmailRegisterResponseSchema = z
  .object({ status: z.literal('verification_sent'), detail: z.string() })
  .meta({ id: 'EmailRegisterResponse' });

export const EmailVerifyRequestSchema = z
  .object({ code: z.string().min(16).max(128) })
  .meta({ id: 'EmailVerifyRequest' });

export const EmailLoginRequestSchema = z
  .object({ email, password: z.string().min(1).max(256) })
  .meta({ id: 'EmailLoginRequest' });
