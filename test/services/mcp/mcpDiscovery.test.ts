import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { callV2, connectV2, type ConfirmationAnswers } from './mcpClientsV2';
import { SERVICE_TOKEN, call, connect, signInPlayer, startMcpPlatform, type Caller } from './mcpPlatform';

/**
 * Small catalogues (a starter set or chosen groups, the rest found with gateway_find_tools) and confirmations of
 * tools that spend, asked of 2026-07-28 clients through `input_required`.
 */
describe('MCP gateway: small catalogues and confirmations', () => {
  let server: TestPlatform;
  let payer: Caller;
  let payee: Caller;

  const balance = async (caller: Caller) => {
    const client = await connect(server.url, caller.token);
    const wallet = await call(client, 'economy_wallet');
    await client.close();
    return (wallet.structuredContent as { soft: string }).soft;
  };

  beforeAll(async () => {
    server = await startMcpPlatform();
    [payer, payee] = await Promise.all([signInPlayer(server.url), signInPlayer(server.url)]);
    await request(server.url)
      .post('/economy/grants')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        user_id: payer.userId,
        currency: 'soft',
        amount: '100',
        reason: 'test',
        idempotency_key: 'grant-discovery-1',
      })
      .expect(201);
  });
  afterAll(() => server.stop());

  it('lists a starter set or named groups, in name order, and finds the rest on demand', async () => {
    const starter = await connectV2(server.url, payer.token, '2026-07-28', { query: '?catalogue=starter' });
    expect((await starter.listTools()).tools.map((tool) => tool.name)).toEqual([
      'brain_ask',
      'brain_search',
      'gateway_access',
      'gateway_find_tools',
      'identity_me',
      'world_look',
    ]);
    const found = await callV2(starter, 'gateway_find_tools', { query: 'pay another player coins' });
    const tools = (found.structuredContent as { tools: Array<{ name: string; input_schema: object }> }).tools;
    expect(tools[0]).toMatchObject({ name: 'economy_transfer', input_schema: { type: 'object' } });
    // Calls are not limited to the listed view: the found tool is called by name.
    expect((await callV2(starter, 'economy_wallet')).structuredContent).toMatchObject({ soft: '100' });
    await starter.close();

    const groups = await connect(server.url, payer.token, '?groups=memory,graph');
    const names = (await groups.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(names.every((name) => /^(memory_|graph_|gateway_find_tools|gateway_access)/.test(name))).toBe(
      true,
    );
    expect(names).toEqual(
      expect.arrayContaining(['memory_working_context', 'graph_neighbours', 'gateway_find_tools']),
    );
    const group = await call(groups, 'gateway_find_tools', { group: 'economy' });
    expect(
      (group.structuredContent as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
    ).toEqual(['economy_ledger', 'economy_transfer', 'economy_wallet']);
    await groups.close();
  });

  it('asks a 2026-07-28 client to confirm a payment, and pays only when confirmed', async () => {
    const transfer = {
      to_user_id: payee.userId,
      currency: 'soft',
      amount: '30',
      idempotency_key: 'pay-confirmed-1',
    };
    const declining: ConfirmationAnswers = { asked: [], answer: 'decline' };
    const no = await connectV2(server.url, payer.token, '2026-07-28', { confirmations: declining });
    const refused = await callV2(no, 'economy_transfer', { ...transfer, idempotency_key: 'pay-declined-1' });
    await no.close();
    expect(declining.asked).toEqual([`Pay 30 soft to user ${payee.userId}? This cannot be undone.`]);
    expect(refused).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'TOOL_NOT_CONFIRMED' } },
    });
    expect(await balance(payer)).toBe('100');

    const accepting: ConfirmationAnswers = { asked: [], answer: 'accept' };
    const yes = await connectV2(server.url, payer.token, '2026-07-28', { confirmations: accepting });
    const paid = await callV2(yes, 'economy_transfer', transfer);
    await yes.close();
    expect(accepting.asked).toHaveLength(1);
    expect(paid.structuredContent).toMatchObject({ amount: '30', balance_after: '70' });
    expect(await balance(payee)).toBe('30');
  });

  it('answers input_required with a sealed state, and refuses a forged or altered one', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const args = { to_user_id: payee.userId, currency: 'soft', amount: '5', idempotency_key: 'pay-raw-1' };
    const post = (params: Record<string, unknown>) =>
      request(server.url)
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Authorization', `Bearer ${payer.token}`)
        .set('Mcp-Protocol-Version', '2026-07-28')
        .set('Mcp-Method', 'tools/call')
        .set('Mcp-Name', 'economy_transfer')
        .send({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'economy_transfer', ...params, _meta: meta },
        });
    const asked = await post({ arguments: args });
    expect(asked.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form' } } },
      requestState: expect.stringMatching(/^v1\./),
    });
    const state = asked.body.result.requestState as string;
    const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
    const forged = await post({ arguments: args, inputResponses: confirm, requestState: `${state}x` });
    expect(forged.body.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    // The state covers these arguments only: confirming 5 coins does not pay 50.
    const altered = await post({
      arguments: { ...args, amount: '50' },
      inputResponses: confirm,
      requestState: state,
    });
    expect(altered.body.result).toMatchObject({ resultType: 'input_required' });
    expect(await balance(payer)).toBe('70');
  });

  it('acts at once for a 2025-era client, as before (its idempotency key guards a retry)', async () => {
    const legacy = await connect(server.url, payer.token);
    const paid = await call(legacy, 'economy_transfer', {
      to_user_id: payee.userId,
      currency: 'soft',
      amount: '10',
      idempotency_key: 'pay-legacy-1',
    });
    await legacy.close();
    expect(paid.structuredContent).toMatchObject({ balance_after: '60' });
  });

  it('answers SIGNER_DISABLED, as the routes do, when signing is not configured', async () => {
    const answers: ConfirmationAnswers = { asked: [], answer: 'accept' };
    const modern = await connectV2(server.url, payer.token, '2026-07-28', { confirmations: answers });
    const refused = await callV2(modern, 'signer_punk_seed_mint', {
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    await modern.close();
    expect(answers.asked).toEqual([]);
    expect(refused).toMatchObject({ isError: true, _meta: { 'forge/error': { code: 'SIGNER_DISABLED' } } });
    const legacy = await connect(server.url, SERVICE_TOKEN);
    const alsoRefused = await call(legacy, 'signer_forge_start', {
      forger: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      path: 0,
      zenCommitted: '1',
    });
    await legacy.close();
    expect(alsoRefused._meta).toMatchObject({ 'forge/error': { code: 'SIGNER_DISABLED' } });
  });
});
