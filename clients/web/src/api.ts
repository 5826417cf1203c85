/** An RFC 9457 problem the API answered with (status, stable code, human detail). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
    this.name = 'ApiProblem';
  }
}

/** Calls the platform's REST API on this page's origin; rejects with an ApiProblem on a non-2xx answer. */
export async function api<T>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) {
    throw new ApiProblem(
      response.status,
      String(body.code ?? 'HTTP_ERROR'),
      String(body.detail ?? body.title ?? response.statusText),
    );
  }
  return body as T;
}

/** A signed-in session as the sign-in routes answer it. */
export interface SessionBody {
  token: string;
  expires_at: string;
}

/** `GET /auth/me`. */
export interface Me {
  id: string;
  display_name?: string;
  tier: number;
  tier_name: string;
  identities: Array<{ kind: string; subject: string }>;
  session: { method: string; address?: string };
}
