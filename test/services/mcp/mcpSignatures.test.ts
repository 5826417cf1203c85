import fs from 'node:fs/promises';
import { getBytes, verifyMessage, verifyTypedData, type Wallet } from 'ethers';
import request from 'supertest';
import {
  FORGE_CLAIM_TYPES,
  FORGE_START_TYPES,
  buildForgeDomain,
  punkSeedMintHash,
} from '../../../contracts/typedData';
import { issuedSignatureModel } from '../../../models/IssuedSignature';
import { systemClock } from '../../../platform/clock';
import { silentLogger } from '../../../platform/logger';
import { ForgeFunds } from '../../../services/economy/forgeFunds';
import { send } from '../../helpers/contractCalls';
import type { Deployment, TestChain } from '../../helpers/evm';
import type { TestPlatform } from '../../helpers/platform';
import { signerAddress, SIGNER_KEYS } from '../../helpers/signerFixtures';
import { signerEnv, startSignerChain, writeSecretsDir } from '../../helpers/signerPlatform';
import { callV2, connectV2, type ConfirmationAnswers } from './mcpClientsV2';
import { SERVICE_TOKEN, call, connect, signInPlayer, startMcpPlatform, type Caller } from './mcpPlatform';

/**
 * Signature requests as MCP tools (issue 40): the product with a signer configured on a dev chain. A 2026-07-28
 * client confirms through `input_required` before anything is signed; the signature recovers to the server's key.
 */
describe('MCP gateway: signature requests confirmed through input_required', () => {
  let chain: TestChain;
  let deployment: Deployment;
  let secretsDir: string;
  let server: TestPlatform;
  let owner: Wallet;
  let player: Caller;

  const stored = () => issuedSignatureModel(server.platform.stores.mongo).countDocuments();
  const accepting = (): ConfirmationAnswers => ({ asked: [], answer: 'accept' });

  beforeAll(async () => {
    ({ chain, deployment } = await startSignerChain(4));
    secretsDir = await writeSecretsDir({ 'signer-private-key-84532': SIGNER_KEYS[84532] });
    server = await startMcpPlatform({
      ...signerEnv(chain, deployment, secretsDir),
      BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
      ROLES: 'api',
      // The signer's Redis keys (request windows, forge cooldowns) are named by chain, not by test platform, and
      // the dev chain's wallets are the same on every run: keep them, and the gateway's limits, in memory.
      REDIS_URL: '',
    });
    owner = chain.wallets[1];
    player = await signInPlayer(server.url, owner);
  });
  afterAll(async () => {
    await server?.stop();
    await chain?.close();
    await fs.rm(secretsDir, { recursive: true, force: true });
  });

  it('asks a 2026-07-28 client to confirm a seed mint, then signs with the server’s key', async () => {
    const answers = accepting();
    const client = await connectV2(server.url, player.token, '2026-07-28', { confirmations: answers });
    const minted = await callV2(client, 'signer_punk_seed_mint', { address: owner.address.toLowerCase() });
    await client.close();
    expect(answers.asked).toEqual([
      `Sign a PunkSeed mint of one seed token to ${owner.address} on chain 84532?`,
    ]);
    expect(minted.isError).toBeFalsy();
    const { signature, nonce } = minted.structuredContent as { signature: string; nonce: number };
    expect(nonce).toBe(0);
    expect(verifyMessage(getBytes(punkSeedMintHash(owner.address, 0n)), signature)).toBe(
      signerAddress(84532),
    );
    expect(await stored()).toBe(1);
  });

  it('signs a forge start then its claim after confirmation: EIP-712 for the deployment, the balance held', async () => {
    const ledger = await ForgeFunds.open(server.platform.stores.mongo, systemClock, silentLogger);
    await ledger.credit({
      idempotencyKey: 'mcp-grant-1',
      address: owner.address,
      amount: 500n,
      reason: 'test',
    });
    const answers = accepting();
    const client = await connectV2(server.url, player.token, '2026-07-28', { confirmations: answers });
    const started = await callV2(client, 'signer_forge_start', {
      forger: owner.address,
      path: 2,
      zenCommitted: '500',
    });
    expect(started).toMatchObject({ structuredContent: { nonce: 0 } });
    expect(answers.asked).toHaveLength(1);
    expect(answers.asked[0]).toContain('path 2 (Trade), committing 500?');
    const issued = started.structuredContent as { forgeId: string; signature: string; nonce: number };
    const message = {
      forger: owner.address,
      path: 2,
      zenCommitted: 500n,
      forgeId: issued.forgeId,
      nonce: 0n,
    };
    const domain = buildForgeDomain(chain.chainId, deployment.forgeAddress);
    expect(verifyTypedData(domain, FORGE_START_TYPES, message, issued.signature)).toBe(signerAddress(84532));
    expect(await ledger.getBalance(owner.address)).toBe(0n);

    // On chain, then claimed through the gateway: the claim signature is the contract's next nonce.
    await chain.setNextBlockTimestamp((started.structuredContent as { expiresAt: number }).expiresAt);
    await send(deployment.forge, owner, 'startForge', 2, 500n, issued.signature);
    const claimed = await callV2(client, 'signer_forge_claim', {
      forgeId: issued.forgeId,
      forger: owner.address,
    });
    await client.close();
    expect(claimed).toMatchObject({ structuredContent: { nonce: 1 } });
    expect(answers.asked[1]).toBe(
      `Sign the claim of forge ${issued.forgeId} for ${owner.address} on chain 84532?`,
    );
    const claim = { forgeId: issued.forgeId, forger: owner.address, nonce: 1n };
    const claimSignature = (claimed.structuredContent as { signature: string }).signature;
    expect(verifyTypedData(domain, FORGE_CLAIM_TYPES, claim, claimSignature)).toBe(signerAddress(84532));
  });

  it('refuses a forged state and asks again when the state is for other arguments', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const post = (params: Record<string, unknown>) =>
      request(server.url)
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .set('Mcp-Protocol-Version', '2026-07-28')
        .set('Mcp-Method', 'tools/call')
        .set('Mcp-Name', 'signer_punk_seed_mint')
        .send({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'signer_punk_seed_mint', ...params, _meta: meta },
        });
    const before = await stored();
    const asked = await post({ arguments: { address: chain.wallets[2].address } });
    expect(asked.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form' } } },
      requestState: expect.stringMatching(/^v1\./),
    });
    const state = asked.body.result.requestState as string;
    const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
    const forged = await post({
      arguments: { address: chain.wallets[2].address },
      inputResponses: confirm,
      requestState: `${state}x`,
    });
    expect(forged.body.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    // Confirming a mint to one wallet does not sign one for another.
    const other = await post({
      arguments: { address: chain.wallets[3].address },
      inputResponses: confirm,
      requestState: state,
    });
    expect(other.body.result).toMatchObject({ resultType: 'input_required' });
    expect(await stored()).toBe(before);
    // The state for these arguments, confirmed: the service token may ask for any address.
    const signed = await post({
      arguments: { address: chain.wallets[2].address },
      inputResponses: confirm,
      requestState: state,
    });
    expect(signed.body.result.structuredContent).toMatchObject({ nonce: 0 });
    expect(await stored()).toBe(before + 1);
  });

  it('refuses a wallet the caller does not own before asking, and signs nothing when declined', async () => {
    const answers = accepting();
    const client = await connectV2(server.url, player.token, '2026-07-28', { confirmations: answers });
    const refused = await callV2(client, 'signer_punk_seed_mint', { address: chain.wallets[3].address });
    await client.close();
    expect(answers.asked).toEqual([]);
    expect(refused).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'SIGNER_ADDRESS_NOT_OWNED' } },
    });
    const legacy = await connect(server.url, player.token);
    const alsoRefused = await call(legacy, 'signer_forge_claim', {
      forgeId: `0x${'ab'.repeat(32)}`,
      forger: chain.wallets[3].address,
    });
    await legacy.close();
    expect(alsoRefused._meta).toMatchObject({ 'forge/error': { code: 'SIGNER_ADDRESS_NOT_OWNED' } });

    // Its own wallet, declined: nothing is signed.
    const before = await stored();
    const declining: ConfirmationAnswers = { asked: [], answer: 'decline' };
    const no = await connectV2(server.url, player.token, '2026-07-28', { confirmations: declining });
    const declined = await callV2(no, 'signer_punk_seed_mint', { address: owner.address });
    await no.close();
    expect(declining.asked).toHaveLength(1);
    expect(declined._meta).toMatchObject({ 'forge/error': { code: 'TOOL_NOT_CONFIRMED' } });
    expect(await stored()).toBe(before);
  });

  it('signs at once for a 2025-era client, as marketplace_buy acts at once', async () => {
    const legacy = await connect(server.url, player.token);
    const again = await call(legacy, 'signer_punk_seed_mint', { address: owner.address });
    await legacy.close();
    // The mint nonce is unused, so asking again returns the same signature.
    expect(again.structuredContent).toMatchObject({ nonce: 0 });
    const { signature } = again.structuredContent as { signature: string };
    expect(verifyMessage(getBytes(punkSeedMintHash(owner.address, 0n)), signature)).toBe(
      signerAddress(84532),
    );
  });
});
