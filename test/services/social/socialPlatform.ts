import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import type { Clock } from '../../../platform/clock';
import { InProcessWorldEventBus, type WorldEventBus } from '../../../rooms/worldEvents';
import { combineParts } from '../../../productParts';
import type { MemoryService, RememberInput } from '../../../services/brain/memory/memoryService';
import { createAuthService } from '../../../services/auth';
import {
  createSocialArea,
  type SocialArea,
  type SocialAreaOptions,
  type SocialAuditEvent,
} from '../../../services/social';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** The service token of social test platforms (the bots' credential). */
export const SOCIAL_SERVICE_TOKEN = 'social-service-token-0123456789';

/** What the fake ports saw: memories remembered, notifications sent, audit events recorded. */
export interface PortRecorder {
  memories: RememberInput[];
  notifications: { userId: string; kind: string; payload: Record<string, unknown> }[];
  audit: SocialAuditEvent[];
}

/** A memory service that keeps what it is told (the port's fake until issue 18's service is merged). */
function recordingMemory(memories: RememberInput[]): MemoryService {
  return {
    remember: async (input) => {
      memories.push(input);
      const now = new Date();
      return {
        merged: false,
        memory: {
          id: String(memories.length),
          subject: input.subject,
          tier: input.tier ?? 'episodic',
          content: input.content,
          session_id: null,
          kind: input.kind ?? null,
          tags: input.tags ?? [],
          importance: input.importance ?? 0.5,
          occurred_at: input.occurred_at ?? now,
          created_at: now,
          last_seen: now,
          seen_count: 1,
        },
      };
    },
    recall: async () => ({ hits: [] }),
    forget: async () => [],
    get: async () => null,
    list: async () => ({ memories: [], next_cursor: null }),
  };
}

/** Identity and the social area on a test platform, with recording ports, and the admin's wallet. */
export interface SocialPlatform {
  server: TestPlatform;
  area: SocialArea;
  ports: PortRecorder;
  /** The world's event bus the area follows (tests publish on it as the rooms would). */
  world: WorldEventBus;
  admin: BaseWallet;
  url: string;
  stop(): Promise<void>;
}

/** Starts identity + social with SIWE on and the service token set. */
export async function startSocialPlatform(
  env: Record<string, string> = {},
  clock?: Clock,
  options: SocialAreaOptions = {},
): Promise<SocialPlatform> {
  const admin = Wallet.createRandom();
  const ports: PortRecorder = { memories: [], notifications: [], audit: [] };
  const world = new InProcessWorldEventBus();
  let area: SocialArea | undefined;
  const server = await startTestPlatform(
    { SIWE_ENABLED: '1', BRAIN_SERVICE_TOKEN: SOCIAL_SERVICE_TOKEN, ADMIN_ADDRESSES: admin.address, ...env },
    async (context) => {
      const auth = createAuthService(context);
      area = await createSocialArea(context, auth, {
        memory: recordingMemory(ports.memories),
        notify: (userId, kind, payload) => ports.notifications.push({ userId, kind, payload }),
        audit: { record: (event) => ports.audit.push(event) },
        events: world,
        ...options,
      });
      return {
        ...combineParts([{ services: [auth.register], close: () => auth.close() }, area]),
        adminGuard: auth.adminGuard,
      };
    },
    clock,
  );
  return {
    server,
    area: area as SocialArea,
    ports,
    world,
    admin,
    url: server.url,
    stop: () => server.stop(),
  };
}

/** A signed-in user: session token and user id. */
export interface SocialUser {
  token: string;
  userId: string;
}

/** Signs `wallet` (default a new one) in. */
export async function signUp(url: string, wallet: BaseWallet = Wallet.createRandom()): Promise<SocialUser> {
  const { body } = await signInWithWallet(url, wallet);
  const me = await request(url).get('/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
  return { token: body.token, userId: me.body.id };
}

/** Requests with a bearer token (DELETE with a JSON body, as the mark and link routes take). */
export function as(url: string, token: string) {
  return {
    get: (path: string) => request(url).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body: object) =>
      request(url).post(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string, body: object) =>
      request(url).delete(path).set('Authorization', `Bearer ${token}`).send(body),
  };
}

let keys = 0;
/** A fresh idempotency key. */
export function newKey(prefix = 'key'): string {
  keys += 1;
  return `${prefix}-${process.pid}-${keys}-${Math.random().toString(36).slice(2, 8)}`;
}

/** An interaction body with `overrides`. */
export function buildInteraction(overrides: Record<string, unknown> = {}) {
  return {
    platform: 'discord',
    user_id: 'ann#1',
    target_platform: 'discord',
    target_user_id: 'bob#2',
    kind: 'help',
    occurred_at: '2026-11-26T08:00:00Z',
    idempotency_key: newKey('interaction'),
    ...overrides,
  };
}

let seqs = 0;
/** A sync batch of `events` from bot `bot` with `overrides`. */
export function buildBatch(events: object[], overrides: Record<string, unknown> = {}) {
  seqs += 1;
  return { bot_instance_id: 'bot-test', seq: seqs, sent_at: '2026-11-26T08:00:00Z', events, ...overrides };
}

type Patchable = Record<string, (...args: unknown[]) => unknown>;

/**
 * The process "dies" at the next call of `method` on `target` (a collection, a model): the call throws, after doing
 * its write when `after`, once. As a kill between two of a write's steps would stop it.
 */
export function dieOnce(target: object, method: string, after: boolean): void {
  const patched = target as Patchable;
  const original = patched[method];
  patched[method] = (...args: unknown[]) => {
    patched[method] = original;
    if (!after) throw new Error(`simulated crash at ${method}`);
    return Promise.resolve(original.apply(target, args)).then(() => {
      throw new Error(`simulated crash after ${method}`);
    });
  };
}
