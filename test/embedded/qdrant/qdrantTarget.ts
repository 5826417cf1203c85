import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { startQdrantEngine } from '../../../embedded/qdrant';

/**
 * The server a suite runs against: a fresh embedded engine in a temp dir, or the real Qdrant at
 * QDRANT_TEST_URL (so the same assertions check that the engine behaves like Qdrant). Collections get unique
 * names, so suites can share a real server and run in parallel.
 */
export interface QdrantTarget {
  url: string;
  client: QdrantClient;
  /** A collection name no other test uses; it is deleted by `close` on a real server. */
  collectionName(prefix: string): string;
  close(): Promise<void>;
}

export async function openQdrantTarget(): Promise<QdrantTarget> {
  const names: string[] = [];
  const collectionName = (prefix: string) => {
    const name = `${prefix}_${randomUUID().slice(0, 8)}`;
    names.push(name);
    return name;
  };
  const externalUrl = process.env.QDRANT_TEST_URL;
  if (externalUrl) {
    const client = new QdrantClient({ url: externalUrl, checkCompatibility: false });
    return {
      url: externalUrl,
      client,
      collectionName,
      async close() {
        for (const name of names) await client.deleteCollection(name);
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qdrant-test-'));
  const engine = await startQdrantEngine({ dir });
  return {
    url: engine.url,
    client: new QdrantClient({ url: engine.url, checkCompatibility: false }),
    collectionName,
    async close() {
      await engine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A random vector with components in [-1, 1). */
export function randomVector(random: () => number, dim: number): number[] {
  return Array.from({ length: dim }, () => random() * 2 - 1);
}

/** The error a client call rejected with: HTTP status and Qdrant's body. */
export async function qdrantError(
  call: Promise<unknown>,
): Promise<{ status: number; error: string | undefined }> {
  try {
    await call;
  } catch (error) {
    const { status, data } = error as { status: number; data?: { status?: { error?: string } } };
    return { status, error: data?.status?.error };
  }
  throw new Error('expected the Qdrant call to fail');
}
