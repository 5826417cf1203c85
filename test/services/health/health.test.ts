import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startQdrantEngine, type QdrantEngine } from '../../../embedded/qdrant';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

describe('liveness, readiness and metrics', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({ REDIS_URL: 'redis://127.0.0.1:6379' });
  });
  afterAll(() => server.stop());

  it('reports liveness', async () => {
    const res = await request(server.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
  });

  it('reports readiness with each configured store', async () => {
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ready',
      checks: [
        { name: 'redis', status: 'up', latencyMs: expect.any(Number) },
        { name: 'mongo', status: 'up', latencyMs: expect.any(Number) },
        { name: 'qdrant', status: 'up', latencyMs: expect.any(Number) },
      ],
    });
  });

  it('exposes default metrics and every SPEC section 6 family in parseable exposition format', async () => {
    await request(server.url).get('/healthz');
    const res = await request(server.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const families = new Map(parsePrometheusTextFormat(res.text).map((family) => [family.name, family]));
    const expected: Record<string, string> = {
      brain_search_total: 'COUNTER',
      brain_search_latency_seconds: 'HISTOGRAM',
      brain_search_result_count: 'HISTOGRAM',
      brain_embedding_total: 'COUNTER',
      brain_embedding_latency_seconds: 'HISTOGRAM',
      brain_embedding_fallbacks_total: 'COUNTER',
      brain_circuit_breaker_state: 'GAUGE',
      brain_circuit_breaker_failures_total: 'COUNTER',
      brain_cache_hits_total: 'COUNTER',
      brain_cache_misses_total: 'COUNTER',
      brain_memory_operations_total: 'COUNTER',
      process_cpu_seconds_total: 'COUNTER',
      nodejs_heap_size_used_bytes: 'GAUGE',
      http_request_duration_seconds: 'HISTOGRAM',
    };
    for (const [name, type] of Object.entries(expected)) expect(families.get(name)?.type).toBe(type);
    expect(res.text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} [1-9]\d*$/m,
    );
  });
});

describe('readiness failures', () => {
  let server: TestPlatform;
  let qdrantDir: string;
  let qdrant: QdrantEngine;

  beforeAll(async () => {
    // A Qdrant that is up at start-up (start-up refuses an unreachable one) and goes away afterwards.
    qdrantDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-readyz-qdrant-'));
    qdrant = await startQdrantEngine({ dir: qdrantDir });
    server = await startTestPlatform({
      REDIS_URL: 'redis://127.0.0.1:6379',
      QDRANT_URL: qdrant.url,
      READINESS_TIMEOUT_MS: '1000',
    });
    await qdrant.close();
  });
  afterAll(async () => {
    await server.stop();
    await fs.rm(qdrantDir, { recursive: true, force: true });
  });

  it('answers 503 naming the store that failed', async () => {
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 503, code: 'NOT_READY', title: 'Service Unavailable' });
    expect(res.body.detail).toMatch(/^Not ready: qdrant \(/);
    expect(res.body.checks).toEqual([
      { name: 'redis', status: 'up', latencyMs: expect.any(Number) },
      { name: 'mongo', status: 'up', latencyMs: expect.any(Number) },
      { name: 'qdrant', status: 'down', latencyMs: expect.any(Number), error: expect.any(String) },
    ]);
  });

  it('notices a store that goes away after start-up', async () => {
    server.platform.stores.redis?.disconnect();
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/redis \(/);
  });
});
