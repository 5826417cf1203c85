import { SignatureRequestPolicy } from '../../../../services/signer/policy/requestPolicy';
import type { z } from 'zod';
import {
  createSignatureCommands,
  type SignatureCaller,
  type SignatureCommands,
} from '../../../../services/signer/issuing/signatureCommands';
import {
  ForgeClaimRequestSchema,
  ForgeStartRequestSchema,
  PunkSeedMintRequestSchema,
} from '../../../../services/signer/schemas';
import type { SignatureRecord } from '../../../../models/IssuedSignature';
import type { AuditEvent } from '../../../../models/AuditEvent';
import { eventsOf, send } from '../../../helpers/contractCalls';
import { deployContracts, startTestChain, type Deployment, type TestChain } from '../../../helpers/evm';
import { captureLogs } from '../../../helpers/logCapture';
import { memoryBalances, signerAddress } from '../../../helpers/signerFixtures';
import { buildSignerStack } from '../../../helpers/signerStack';

let chain: TestChain;
let deployment: Deployment;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 84532, accounts: 4 });
  deployment = await deployContracts(chain, signerAddress(84532));
});

afterAll(async () => {
  await chain.close();
});

const CALLER = { requestedBy: 'service' };

/** The commands as the routes call them: with the body their HTTP schema parsed (the only validation). */
function parsing(commands: SignatureCommands) {
  return {
    startForge: (body: z.input<typeof ForgeStartRequestSchema>, caller: SignatureCaller) =>
      commands.startForge(ForgeStartRequestSchema.parse(body), caller),
    claimForge: (body: z.input<typeof ForgeClaimRequestSchema>, caller: SignatureCaller) =>
      commands.claimForge(ForgeClaimRequestSchema.parse(body), caller),
    mintPunkSeed: (body: z.input<typeof PunkSeedMintRequestSchema>, caller: SignatureCaller) =>
      commands.mintPunkSeed(PunkSeedMintRequestSchema.parse(body), caller),
  };
}

/** The paths the forge start schema rejects in `body` (what a 400 VALIDATION_FAILED names). */
function rejectedPaths(body: z.input<typeof ForgeStartRequestSchema>): string[] {
  const result = ForgeStartRequestSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

function buildCommands(balances: Record<string, bigint> = {}) {
  const stack = buildSignerStack(chain, deployment);
  const saved: SignatureRecord[] = [];
  const logs = captureLogs();
  const audited: AuditEvent[] = [];
  const policy = new SignatureRequestPolicy({
    balances: memoryBalances(balances),
    clock: stack.clock,
  });
  const commands = parsing(
    createSignatureCommands({
      core: stack,
      policy,
      store: { save: async (record) => void saved.push(record) },
      clock: stack.clock,
      logger: logs.logger,
      audit: { record: (event) => void audited.push(event) },
    }),
  );
  return { commands, saved, logs, stack, audited };
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'accepted',
    (error: { status: number; code: string }) => `${error.status} ${error.code}`,
  );
}

describe('signature commands (what the SPEC 4.10 routes call)', () => {
  it('records every request in the audit log with its outcome, caller and origin (never the signature)', async () => {
    const user = chain.wallets[2];
    const { commands, audited } = buildCommands({});
    const caller = { requestedBy: 'user:0123456789abcdef01234567', ip: '10.1.2.3', requestId: 'req-9' };
    const minted = await commands.mintPunkSeed({ address: user.address }, caller);
    expect(
      await rejection(commands.startForge({ forger: user.address, path: 1, zenCommitted: '10' }, caller)),
    ).toBe('409 SIGNER_INSUFFICIENT_BALANCE');
    expect(audited).toEqual([
      expect.objectContaining({
        actor: caller.requestedBy,
        kind: 'signer.request',
        target: `address:${user.address.toLowerCase()}`,
        outcome: 'ok',
        ip: '10.1.2.3',
        request_id: 'req-9',
        details: { type: 'punk-seed-mint' },
      }),
      expect.objectContaining({
        outcome: 'refused',
        details: { type: 'forge-start', code: 'SIGNER_INSUFFICIENT_BALANCE' },
      }),
    ]);
    expect(JSON.stringify(audited)).not.toContain(minted.signature);
  });

  it('start → claim → mint, answered in the SPEC 2.5-2.7 shapes, stored, and accepted on chain', async () => {
    const user = chain.wallets[1];
    const { commands, saved } = buildCommands({ [user.address]: 5000n });

    const start = await commands.startForge(
      {
        forger: user.address.toLowerCase(),
        path: 3,
        zenCommitted: '5000',
      },
      CALLER,
    );
    expect(Object.keys(start)).toEqual(['forgeId', 'signature', 'nonce', 'expiresAt']);
    expect(start.nonce).toBe(0);
    await chain.setNextBlockTimestamp(start.expiresAt);
    await send(deployment.forge, user, 'startForge', 3, 5000n, start.signature);

    const claim = await commands.claimForge({ forgeId: start.forgeId, forger: user.address }, CALLER);
    expect(Object.keys(claim)).toEqual(['signature', 'nonce']);
    expect(claim.nonce).toBe(1);
    const receipt = await send(deployment.forge, user, 'claimForge', start.forgeId, claim.signature);
    expect(eventsOf(receipt, deployment.forge).map((event) => event.name)).toEqual([
      'SignatureConsumed',
      'ForgeClaimed',
    ]);

    const mint = await commands.mintPunkSeed({ address: user.address }, CALLER);
    expect(mint.nonce).toBe(0);
    await send(deployment.seed, user, 'mintWithSignature', mint.signature);

    expect(saved.map((record) => [record.kind, record.requester, record.nonce, record.signature])).toEqual([
      ['forge-start', user.address, '0', start.signature],
      ['forge-claim', user.address, '1', claim.signature],
      ['punk-seed-mint', user.address, '0', mint.signature],
    ]);
  });

  it('rejects invalid input, a short balance and a second start inside the cooldown, storing nothing', async () => {
    const user = chain.wallets[2];
    // 200: the first start below holds 100 of it, so the second one meets the cooldown, not the balance.
    const { commands, saved, logs } = buildCommands({ [user.address]: 200n });
    const badChecksum = user.address.replace(/[a-f]/, (c) => c.toUpperCase());

    expect(rejectedPaths({ forger: badChecksum, path: 0, zenCommitted: '1' })).toEqual(['forger']);
    expect(rejectedPaths({ forger: user.address, path: 5, zenCommitted: '1' })).toEqual(['path']);
    expect(rejectedPaths({ forger: user.address, path: 0, zenCommitted: '0' })).toEqual(['zenCommitted']);
    expect(
      await rejection(commands.startForge({ forger: user.address, path: 0, zenCommitted: '201' }, CALLER)),
    ).toBe('409 SIGNER_INSUFFICIENT_BALANCE');
    expect(saved).toEqual([]);

    await commands.startForge({ forger: user.address, path: 0, zenCommitted: '100' }, CALLER);
    expect(
      await rejection(commands.startForge({ forger: user.address, path: 1, zenCommitted: '10' }, CALLER)),
    ).toBe('429 SIGNER_FORGE_COOLDOWN');
    expect(saved).toHaveLength(1);
    expect(logs.lines.map((line) => [line.msg, line.kind, line.outcome, line.code])).toEqual([
      ['signature request', 'forge-start', 'rejected', 'SIGNER_INSUFFICIENT_BALANCE'],
      ['signature request', 'forge-start', 'issued', undefined],
      ['signature request', 'forge-start', 'rejected', 'SIGNER_FORGE_COOLDOWN'],
    ]);
    expect(
      logs.lines.every((line) => typeof line.requestedAt === 'string' && typeof line.time === 'number'),
    ).toBe(true);
  });

  it('answers the 11th signature request of an address within a minute with 429', async () => {
    const user = chain.wallets[3];
    const { commands, stack } = buildCommands();
    for (let i = 0; i < 10; i += 1) {
      await commands.mintPunkSeed({ address: user.address }, CALLER);
      stack.clock.advance(1000);
    }
    expect(await rejection(commands.mintPunkSeed({ address: user.address }, CALLER))).toBe(
      '429 SIGNER_RATE_LIMITED',
    );
  });
});
