import { problemsOf, type FuzzAnswer, type LeakWatch } from '../helpers/schemaFuzz/answerChecks';
import type { FuzzOperation } from '../helpers/schemaFuzz/mutations';

/** An operation declaring `statuses`, as the contract fuzz reads it. */
function buildOperation(overrides: Partial<FuzzOperation> = {}): FuzzOperation {
  return {
    method: 'post',
    template: '/brain/decisions',
    parameters: [],
    statuses: ['201', '400', '503'],
    ...overrides,
  };
}

const problem = (status: number, code: string, extra: object = {}): FuzzAnswer => ({
  status,
  contentType: 'application/problem+json; charset=utf-8',
  text: JSON.stringify({
    type: `/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    status,
    code,
    ...extra,
  }),
});

const watch: LeakWatch = { secrets: ['s3cret-service-token'], paths: ['/work/forge', '/tmp/forge-test-abc'] };

/** The contract fuzz's oracle: what it calls a failure, so a green run means what the README says. */
describe('contract fuzz answer checks', () => {
  it('passes a declared 503 and a 4xx problem with a stable code', () => {
    expect(problemsOf(problem(503, 'BRAIN_UNAVAILABLE'), buildOperation(), watch)).toEqual([]);
    expect(problemsOf(problem(400, 'VALIDATION_FAILED'), buildOperation(), watch)).toEqual([]);
  });

  it('fails a 500, and a 501 or 503 the operation does not declare', () => {
    expect(problemsOf(problem(500, 'INTERNAL_ERROR'), buildOperation(), watch)).toEqual([
      'status 500 (undeclared)',
    ]);
    expect(problemsOf(problem(501, 'OIDC_DISABLED'), buildOperation(), watch)).toEqual([
      'status 501 (undeclared)',
    ]);
  });

  it('fails an error that is not problem JSON, or whose code is not a stable machine code', () => {
    const html = { status: 431, contentType: 'text/html', text: '<h1>431</h1>' };
    expect(problemsOf(html, buildOperation(), watch)).toEqual(['error as text/html']);
    const loose = problem(400, 'bad input', { type: '/problems/bad-input' });
    expect(problemsOf(loose, buildOperation(), watch)).toEqual(['problem without a stable code (bad input)']);
  });

  it('accepts a JSON-RPC error carrying the problem on /mcp only', () => {
    const rpc = {
      status: 400,
      contentType: 'application/json',
      text: JSON.stringify({
        jsonrpc: '2.0',
        error: { data: JSON.parse(problem(400, 'MCP_BAD_REQUEST').text) },
      }),
    };
    expect(problemsOf(rpc, buildOperation({ template: '/mcp' }), watch)).toEqual([]);
    expect(problemsOf(rpc, buildOperation(), watch)).toEqual(['error as application/json']);
  });

  it('fails a body with a stack frame, a secret or a path of the server', () => {
    const leaky = problem(400, 'VALIDATION_FAILED', {
      detail:
        'Error: x\n    at parse (/work/forge/ai/chunker.ts:12:5) s3cret-service-token /tmp/forge-test-abc/db',
    });
    expect(problemsOf(leaky, buildOperation(), watch)).toEqual([
      'stack trace in body',
      'secret in body',
      'filesystem path in body (/work/forge)',
      'filesystem path in body (/tmp/forge-test-abc)',
    ]);
  });
});
