import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { embeddedEngines } from '../../embedded';
import { loadConfig } from '../../platform/config';
import { Platform } from '../../platform/platform';
import { productParts } from '../../productParts';

/**
 * Environment the document is built with: the api role on loopback, a throwaway DATA_DIR, the service token and
 * admin list set so every area registers its routes. No secret of a real deployment is involved.
 */
const DOCUMENT_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  ROLES: 'api',
  LOG_LEVEL: 'silent',
  BRAIN_SEED_ON_START: '0',
  BRAIN_SERVICE_TOKEN: 'openapi-document-service-token-0000',
};

/**
 * The product's `/openapi.json` exactly as the server publishes it: the whole product is composed in-process on
 * embedded stores (as `productParts.ts` composes it in production), the document is read from its own route, and
 * everything is stopped and removed again. Takes a few seconds.
 */
export async function buildOpenApiDocument(): Promise<unknown> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-openapi-'));
  const config = loadConfig({ ...DOCUMENT_ENV, DATA_DIR: dataDir });
  const platform = await Platform.start({
    config,
    logger: pino({ level: 'silent' }),
    engines: embeddedEngines,
    parts: (context) => productParts(context),
  });
  try {
    const response = await fetch(`http://127.0.0.1:${platform.port}/openapi.json`);
    if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`);
    return await response.json();
  } finally {
    await platform.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
