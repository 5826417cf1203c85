import client from 'prom-client';

/**
 * The platform's Prometheus metrics: default process metrics plus the families SPEC.md section 6 names,
 * registered once under stable names. Services import the metric they feed; `/metrics` renders `registry`.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const searchLatencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Searches served, by strategy (fulltext, semantic, hybrid, ...) and index. */
export const searchTotal = new client.Counter({
  name: 'brain_search_total',
  help: 'Searches served, by strategy and index',
  labelNames: ['strategy', 'index'] as const,
  registers: [registry],
});

/** Search latency in seconds, by strategy. Alerts BrainSearchLatencyHigh/Critical read its p95. */
export const searchLatency = new client.Histogram({
  name: 'brain_search_latency_seconds',
  help: 'Search latency in seconds, by strategy',
  labelNames: ['strategy'] as const,
  buckets: searchLatencyBuckets,
  registers: [registry],
});

/** Number of results returned per search, by strategy. */
export const searchResultCount = new client.Histogram({
  name: 'brain_search_result_count',
  help: 'Results returned per search, by strategy',
  labelNames: ['strategy'] as const,
  buckets: [0, 1, 3, 5, 10, 20, 50, 100],
  registers: [registry],
});

/** Embedding calls, by provider and outcome (success, failure). */
export const embeddingTotal = new client.Counter({
  name: 'brain_embedding_total',
  help: 'Embedding calls, by provider and outcome',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});

/** Embedding latency in seconds, by provider. */
export const embeddingLatency = new client.Histogram({
  name: 'brain_embedding_latency_seconds',
  help: 'Embedding latency in seconds, by provider',
  labelNames: ['provider'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** Times the embedding chain fell past a provider, labelled with the provider that was skipped or failed. */
export const embeddingFallbacks = new client.Counter({
  name: 'brain_embedding_fallbacks_total',
  help: 'Embedding fallbacks, by the provider that failed or was skipped',
  labelNames: ['provider'] as const,
  registers: [registry],
});

/** Circuit-breaker state per provider: 0 CLOSED, 1 HALF_OPEN, 2 OPEN. */
export const circuitBreakerState = new client.Gauge({
  name: 'brain_circuit_breaker_state',
  help: 'Circuit breaker state per provider (0 CLOSED, 1 HALF_OPEN, 2 OPEN)',
  labelNames: ['provider'] as const,
  registers: [registry],
});

/** Failures recorded by a circuit breaker, by provider. */
export const circuitBreakerFailures = new client.Counter({
  name: 'brain_circuit_breaker_failures_total',
  help: 'Failures recorded by circuit breakers, by provider',
  labelNames: ['provider'] as const,
  registers: [registry],
});

/** Search cache hits, by level (L1, L2). */
export const cacheHits = new client.Counter({
  name: 'brain_cache_hits_total',
  help: 'Search cache hits, by level',
  labelNames: ['level'] as const,
  registers: [registry],
});

/** Search cache misses, by level (L1, L2). */
export const cacheMisses = new client.Counter({
  name: 'brain_cache_misses_total',
  help: 'Search cache misses, by level',
  labelNames: ['level'] as const,
  registers: [registry],
});

/** Memory operations (remember, recall, forget, consolidate), by operation and tier. */
export const memoryOperations = new client.Counter({
  name: 'brain_memory_operations_total',
  help: 'Memory operations, by operation and tier',
  labelNames: ['operation', 'tier'] as const,
  registers: [registry],
});

/** Numeric value of each circuit-breaker state, as exported by `circuitBreakerState`. */
export const CIRCUIT_STATE_VALUE = { CLOSED: 0, HALF_OPEN: 1, OPEN: 2 } as const;

/** HTTP request duration in seconds, by method, matched route template and status code. */
export const httpRequestDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration in seconds, by method, route and status',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** Wallet sign-in attempts that reused an already consumed nonce. */
export const siweReplays = new client.Counter({
  name: 'siwe_replays_total',
  help: 'Wallet sign-in attempts replaying a consumed nonce',
  registers: [registry],
});

/** Replays counted in the current monitoring window (compare with SIWE_REPLAY_CAP). */
export const siweReplaysInWindow = new client.Gauge({
  name: 'siwe_replays_in_window',
  help: 'Wallet sign-in replays in the current window',
  registers: [registry],
});

/** Replays beyond SIWE_REPLAY_CAP within one window; BrainCircuit-style alerting reads this. */
export const siweReplaysOverCap = new client.Counter({
  name: 'siwe_replays_over_cap_total',
  help: 'Wallet sign-in replays beyond SIWE_REPLAY_CAP within a window',
  registers: [registry],
});

/** Whether each store answered its last readiness check (1 up, 0 down), by store; set by `/readyz` and `/metrics`. */
export const storeUp = new client.Gauge({
  name: 'platform_store_up',
  help: 'Whether a store answered its last readiness check (1 up, 0 down), by store',
  labelNames: ['store'] as const,
  registers: [registry],
});

/** Readiness as a number: 1 ready, 0.5 degraded (a store with an in-process fallback is down), 0 not ready. */
export const readinessState = new client.Gauge({
  name: 'platform_readiness',
  help: 'Readiness: 1 ready, 0.5 degraded (serving on in-process fallbacks), 0 not ready',
  registers: [registry],
});

/** How late each world tick started against its schedule, in seconds, by area. */
export const worldTickLag = new client.Histogram({
  name: 'world_tick_lag_seconds',
  help: 'How late each world tick started against its schedule, by area',
  labelNames: ['area'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [registry],
});

/** Time one world tick took to simulate, in seconds, by area. */
export const worldTickDuration = new client.Histogram({
  name: 'world_tick_duration_seconds',
  help: 'Time one world tick took to simulate, by area',
  labelNames: ['area'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
  registers: [registry],
});

/** Telnet connections open now (the world's telnet port). */
export const telnetConnections = new client.Gauge({
  name: 'telnet_connections',
  help: 'Telnet connections open now',
  registers: [registry],
});

/** Telnet connections the server closed or refused, by reason. */
export const telnetDropped = new client.Counter({
  name: 'telnet_connections_dropped_total',
  help: 'Telnet connections closed or refused by the server, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** Unix time of the last completed backup (0 until one completes in this process). */
export const backupLastSuccess = new client.Gauge({
  name: 'platform_backup_last_success_timestamp_seconds',
  help: 'Unix time of the last completed backup (0 until one completes in this process)',
  registers: [registry],
});

/** Backups that failed. */
export const backupFailures = new client.Counter({
  name: 'platform_backup_failures_total',
  help: 'Backups that failed',
  registers: [registry],
});

/** Duration of the last completed backup, in seconds. */
export const backupDuration = new client.Gauge({
  name: 'platform_backup_duration_seconds',
  help: 'Duration of the last completed backup, in seconds',
  registers: [registry],
});
