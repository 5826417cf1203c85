import { getBytes } from 'ethers';
import { punkSeedMintHash, PUNK_SEED_MINT_TAG } from '../../../contracts/typedData';
import type { PunkSeedContractReader } from '../chain/chainContracts';
import {
  completeIssue,
  issuerContext,
  usableNonce,
  type IssuerContext,
  type IssuerDependencies,
} from './issuerContext';
import type { SignatureRecord } from '../../../models/IssuedSignature';

/** Dependencies of MintSignatureIssuer; `nonces` must read PunkSeed's getNonce. */
export interface MintSignatureIssuerDependencies extends IssuerDependencies {
  seed: PunkSeedContractReader;
}

/** An issued seed mint signature: the response fields plus the record to store. */
export interface IssuedMint {
  signature: string;
  nonce: bigint;
  record: SignatureRecord;
}

/**
 * Issues PunkSeed mint signatures (SPEC 2.7, 2.8): the signer signs keccak256(abi.encodePacked(to, nonce,
 * "MINT_PUNK_SEED")) as an EIP-191 personal message. The message binds no chain id, so only the per-chain key
 * keeps a testnet signature from minting on mainnet.
 */
export class MintSignatureIssuer {
  private readonly ctx: IssuerContext;

  constructor(private readonly deps: MintSignatureIssuerDependencies) {
    this.ctx = issuerContext(deps);
  }

  /** Signs a mint for `address` (already validated) at its current PunkSeed nonce. */
  async issueMint(request: { address: string }): Promise<IssuedMint> {
    const startedAt = process.hrtime.bigint();
    const signer = await this.ctx.keys.getSigner(this.ctx.chainId);
    const nonce = await usableNonce(this.ctx, 'punk-seed-mint', this.deps.seed.address, request.address);
    const messageHash = punkSeedMintHash(request.address, nonce);
    // The 32 hash bytes are the personal message, not their hex text.
    const signature = await signer.signMessage(getBytes(messageHash));
    const record = completeIssue(this.ctx, startedAt, {
      kind: 'punk-seed-mint',
      contract: this.deps.seed.address,
      requester: request.address,
      signer: signer.address,
      nonce: nonce.toString(),
      signature,
      payload: {
        format: 'eip191',
        messageHash,
        message: { to: request.address, nonce: nonce.toString(), tag: PUNK_SEED_MINT_TAG },
      },
      expiresAt: null,
    });
    return { signature, nonce, record };
  }
}
