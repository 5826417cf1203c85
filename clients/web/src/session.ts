import { api, ApiProblem, type Me } from './api';

const TOKEN_KEY = 'forge.session';

/** The saved session token (survives a reload), or undefined. */
export function savedToken(): string | undefined {
  return localStorage.getItem(TOKEN_KEY) ?? undefined;
}

/** Remembers a session token for later visits. */
export function saveToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

/** Forgets the session (sign-out, or the server no longer knows it). */
export function forgetToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** The user behind a saved token; undefined when the token is gone, expired or revoked (then it is forgotten). */
export async function resume(): Promise<{ token: string; me: Me } | undefined> {
  const token = savedToken();
  if (!token) return undefined;
  try {
    return { token, me: await api<Me>('GET', '/auth/me', { token }) };
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 401) {
      forgetToken();
      return undefined;
    }
    throw error;
  }
}
