/**
 * Wallet sign-in throughput: `POST /auth/wallet/verify` over HTTP against one in-process platform (embedded
 * MongoDB, real Redis when REDIS_URL is set). Nonces are fetched and messages signed before timing; the timed part
 * is verification (message parsing, ecrecover, nonce consumption, user lookup, session write) plus HTTP.
 * Usage: npx tsx bench/authVerify.ts [verifies=2000] [concurrency=32]   Target: >= 1,000 verifies/s.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { Platform } from '../platform/platform';
import { productParts } from '../productParts';

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 32);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function post(port: number, route: string, body: unknown): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: route,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-bench-auth-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ROLES: 'api',
    SIWE_ENABLED: '1',
    LOG_LEVEL: 'warn',
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
  });
  const platform = await Platform.start({
    config,
    logger: createLogger({ level: 'warn' }),
    parts: productParts,
  });
  const port = platform.port;

  const wallets = Array.from({ length: 100 }, () => Wallet.createRandom());
  const proofs: { address: string; nonce: string; message: string; signature: string }[] = [];
  for (let i = 0; i < total; i++) {
    const wallet = wallets[i % wallets.length] as (typeof wallets)[number];
    const { nonce } = JSON.parse((await post(port, '/auth/wallet/nonce', {})).body) as { nonce: string };
    const message = new SiweMessage({
      domain: config.SIWE_DOMAIN,
      address: wallet.address,
      uri: `http://${config.SIWE_DOMAIN}/login`,
      version: '1',
      chainId: 8453,
      nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    proofs.push({ address: wallet.address, nonce, message, signature: await wallet.signMessage(message) });
  }

  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < proofs.length) {
        const proof = proofs[next++];
        const t0 = performance.now();
        const res = await post(port, '/auth/wallet/verify', proof);
        latencies.push(performance.now() - t0);
        if (res.status !== 202) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `wallet verify over HTTP: ${total} verifies, concurrency ${concurrency}, redis ${config.REDIS_URL ? 'yes' : 'no'}`,
  );
  console.log(`  throughput ${(total / seconds).toFixed(0)} verifies/s (target >= 1000)`);
  console.log(
    `  latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  console.log(`  failures ${failures}`);
  agent.destroy();
  await platform.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
