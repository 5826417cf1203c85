import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Wallet, type BaseWallet } from 'ethers';
import { Types } from 'mongoose';
import request from 'supertest';
import { userModel } from '../../../models/User';
import type { Clock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import { Sessions } from '../../../services/auth/sessions';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** The service token of every MCP test platform. */
export const SERVICE_TOKEN = 'mcp-test-service-token-0123456789';

/** The wallet every MCP test platform makes an admin (ADMIN_ADDRESSES). */
export const ADMIN_WALLET = Wallet.createRandom();

/** A caller of the gateway: its bearer token and, for users, the user id. */
export interface Caller {
  token: string;
  userId?: string;
}

/**
 * The whole product (productParts.ts) with wallet sign-in, the service token, an admin wallet, real Redis for
 * the limiters (unique key prefixes per platform), and the world's game role unless `env` says otherwise.
 */
export function startMcpPlatform(env: Record<string, string> = {}, clock?: Clock): Promise<TestPlatform> {
  return startTestPlatform(
    {
      ROLES: 'api,game,worker',
      SIWE_ENABLED: '1',
      MUD_TICK_MS: '10',
      REDIS_URL: 'redis://127.0.0.1:6379',
      BRAIN_CACHE_KEY_PREFIX: `test:mcp:${randomUUID()}:`,
      MCP_REDIS_KEY_PREFIX: `test:mcp:${randomUUID()}:`,
      BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
      ADMIN_ADDRESSES: ADMIN_WALLET.address.toLowerCase(),
      ...env,
    },
    productParts,
    clock,
  );
}

/** Signs a wallet in (a new one by default): a Verified (tier 2) player, or an admin with ADMIN_WALLET. */
export async function signInPlayer(url: string, wallet: BaseWallet = Wallet.createRandom()): Promise<Caller> {
  const { body } = await signInWithWallet(url, wallet);
  const me = await request(url).get('/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
  return { token: body.token, userId: me.body.id };
}

/**
 * A guest: a tier-0 (Anonymous) user with a session, what issue 15's guest sign-in issues. Built with the
 * identity service's own session store, as no public route of this branch creates tier-0 sessions.
 */
export async function signInGuest(server: TestPlatform, clock: Clock): Promise<Caller> {
  const connection = server.platform.stores.mongo;
  if (!connection) throw new Error('no MongoDB');
  const user = await userModel(connection).create({ roles: ['player'], tier: 0 });
  const issued = await new Sessions(connection, clock).issue(user._id as Types.ObjectId, 'email', 3600);
  return { token: issued.token, userId: user._id.toHexString() };
}

/** An MCP SDK (v1) client connected to the platform's /mcp (query: a catalogue view) with `token` (initialize done). */
export async function connect(url: string, token: string, query = ''): Promise<Client> {
  const client = new Client({ name: 'forge-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp${query}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's result, typed as a CallToolResult. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
