/**
 * Jest setup (`setupFilesAfterEnv`): every answer a test receives through supertest from the platform is checked
 * against the published OpenAPI document (test/helpers/responseContract.ts). An undeclared status, media type or a
 * body that does not match its schema fails the request, so the test that made it fails with the reasons.
 *
 * The document is the one the answering platform publishes when a test started it with `startTestPlatform` (its
 * own routes, test services included), else the product's committed `clients/api/generated/openapi.json`.
 * Platform answers are those carrying `X-Request-Id` (the request-context middleware sets it on every answer);
 * other HTTP servers a test talks to (a stub OIDC provider, a JSON-RPC chain, nginx's own pages) are not ours.
 *
 * `RESPONSE_CONTRACT_REPORT=<file>` records the findings in that file (one JSON line each) instead of failing: a way
 * to survey many test files at once while fixing the contract, never set in CI.
 */
import fs from 'node:fs';
import { Test } from 'supertest';
import { contractFor } from '../helpers/responseContract';

interface SuperagentResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}
type Callback = (this: unknown, error: Error | null, res?: SuperagentResponse) => void;
type AssertFn = (this: Test, error: Error | null, res: SuperagentResponse | undefined, fn?: Callback) => void;

const report = process.env.RESPONSE_CONTRACT_REPORT;

function check(test: Test, res: SuperagentResponse): Error | null {
  if (res.headers['x-request-id'] === undefined) return null;
  const { method, url } = test as unknown as { method: string; url: string };
  const contract = contractFor(url);
  const json = /[/+]json\b/.test(String(res.headers['content-type'] ?? ''));
  const errors = contract.errors({
    method,
    url,
    status: res.status,
    headers: res.headers,
    body: json ? res.body : (res.text ?? res.body),
  });
  if (errors.length === 0) return null;
  if (report) {
    const where = expect.getState().testPath ?? '';
    fs.appendFileSync(report, `${JSON.stringify({ test: where, errors })}\n`);
    return null;
  }
  return new Error(
    `the answer breaks the published contract (clients/api/generated/openapi.json):\n${errors.join('\n')}`,
  );
}

const prototype = Test.prototype as unknown as { assert: AssertFn };
const assert = prototype.assert;
prototype.assert = function (this: Test, error, res, fn) {
  assert.call(this, error, res, function (this: unknown, outcome, answer) {
    const broken = outcome === null && answer ? check(this as Test, answer) : null;
    fn?.call(this, broken ?? outcome, answer);
  });
};
