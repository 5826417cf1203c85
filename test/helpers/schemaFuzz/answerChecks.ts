import type { FuzzOperation } from './mutations';

/** An answer as the fuzz received it. */
export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** A stack frame of V8 (`at fn (/path/file.ts:1:2)`, `at /path/file.js:1:2`) or Node's internals. */
const STACK_FRAME = /\bat (?:async )?(?:[\w.<>$[\] ]+ \()?(?:\/|file:|node:)[^\s)]*:\d+:\d+|node:internal\//;
/** A stable machine code, as the error catalogues write them. */
const CODE = /^[A-Z][A-Z0-9_]*$/;

const kebab = (code: string) => code.toLowerCase().replace(/_/g, '-');

/** Where a server's files live: no body should name them. */
export interface LeakWatch {
  /** Credentials: the configuration's secrets and every caller's token. */
  secrets: string[];
  /** Absolute directories (the repository, the data directory, the temp directory) no body may mention. */
  paths: string[];
}

/**
 * Errors are problem JSON, except on the MCP endpoint, which speaks JSON-RPC: there an error is a JSON-RPC error
 * object whose `data` is the problem.
 */
function problemOf(answer: FuzzAnswer, template: string): Record<string, unknown> | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (/^application\/problem\+json/.test(answer.contentType)) return body;
  const error = body.error as { data?: Record<string, unknown> } | undefined;
  if (template === '/mcp' && /^application\/json/.test(answer.contentType) && body.jsonrpc === '2.0')
    return error?.data;
  return undefined;
}

/** What is wrong with an answer, or nothing. */
export function problemsOf(answer: FuzzAnswer, operation: FuzzOperation, watch: LeakWatch): string[] {
  const found: string[] = [];
  const declared = operation.statuses.includes(String(answer.status));
  if (answer.status >= 500 && !((answer.status === 501 || answer.status === 503) && declared))
    found.push(`status ${answer.status}${declared ? '' : ' (undeclared)'}`);
  if (answer.status >= 400) {
    const problem = problemOf(answer, operation.template);
    if (!problem) found.push(`error as ${answer.contentType || 'no content type'}`);
    else {
      const code = String(problem.code);
      if (!CODE.test(code)) found.push(`problem without a stable code (${code})`);
      else if (problem.type !== `/problems/${kebab(code)}`)
        found.push(`type ${String(problem.type)} for ${code}`);
      if (problem.status !== answer.status) found.push(`problem status ${String(problem.status)}`);
    }
  }
  if (STACK_FRAME.test(answer.text)) found.push('stack trace in body');
  for (const secret of watch.secrets) if (answer.text.includes(secret)) found.push('secret in body');
  for (const dir of watch.paths)
    if (answer.text.includes(dir)) found.push(`filesystem path in body (${dir})`);
  return found;
}
