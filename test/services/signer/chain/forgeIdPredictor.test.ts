import { computeForgeId, ForgePath } from '../../../../contracts/typedData';
import { ManualClock } from '../../../../platform/clock';
import type { AppError } from '../../../../platform/errors';
import { ForgeIdPredictor, type BlockSource } from '../../../../services/signer/chain/forgeIdPredictor';

const FORGER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

class FakeBlocks implements BlockSource {
  timestamp = 1_767_225_600;
  reads = 0;
  fail = false;

  async getBlock(): Promise<{ timestamp: number } | null> {
    this.reads += 1;
    if (this.fail) throw new Error('connection refused');
    return { timestamp: this.timestamp };
  }
}

function buildPredictor(overrides: { bufferSeconds?: number; blockCacheMs?: number } = {}) {
  const blocks = new FakeBlocks();
  const clock = new ManualClock();
  return { blocks, clock, predictor: new ForgeIdPredictor({ blocks, clock, ...overrides }) };
}

describe('ForgeIdPredictor', () => {
  it('predicts the forgeId at latest block timestamp + buffer (default 20 s)', async () => {
    const { blocks, predictor } = buildPredictor();
    const predicted = await predictor.predict({ forger: FORGER, path: ForgePath.Wisdom, nonce: 4n });
    const timestamp = blocks.timestamp + 20;
    expect(predicted).toEqual({
      timestamp,
      forgeId: computeForgeId({ forger: FORGER, path: ForgePath.Wisdom, timestamp, nonce: 4n }),
    });
  });

  it('uses the configured buffer', async () => {
    const { blocks, predictor } = buildPredictor({ bufferSeconds: 30 });
    expect((await predictor.predict({ forger: FORGER, path: 0, nonce: 0n })).timestamp).toBe(
      blocks.timestamp + 30,
    );
  });

  it('reuses the latest block for blockCacheMs (default 1 s)', async () => {
    const { blocks, clock, predictor } = buildPredictor();
    await predictor.latestBlockTimestamp();
    blocks.timestamp += 2;
    clock.advance(999);
    expect([await predictor.latestBlockTimestamp(), blocks.reads]).toEqual([blocks.timestamp - 2, 1]);
    clock.advance(1);
    expect([await predictor.latestBlockTimestamp(), blocks.reads]).toEqual([blocks.timestamp, 2]);
  });

  it.each([9, 31, 12.5])('refuses a buffer of %p s (allowed 10..30)', (bufferSeconds) => {
    expect(() => buildPredictor({ bufferSeconds })).toThrow(
      `forge timestamp buffer must be an integer 10..30 s, got ${bufferSeconds}`,
    );
  });

  it('reports an RPC failure as SIGNER_CHAIN_UNAVAILABLE (503), its text kept as the cause only', async () => {
    const { blocks, predictor } = buildPredictor();
    blocks.fail = true;
    const error = (await predictor.latestBlockTimestamp().catch((caught: unknown) => caught)) as AppError;
    expect([error.status, error.code, error.message]).toEqual([
      503,
      'SIGNER_CHAIN_UNAVAILABLE',
      "The chain's JSON-RPC endpoint (getBlock(latest)) is unavailable; retry later",
    ]);
    expect((error.cause as Error).message).toBe('connection refused');
  });
});
