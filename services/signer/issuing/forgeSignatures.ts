import {
  buildForgeDomain,
  FORGE_CLAIM_TYPES,
  FORGE_DOMAIN_NAME,
  FORGE_DOMAIN_VERSION,
  FORGE_START_TYPES,
  type ForgeClaimMessage,
  type ForgePath,
  type ForgeStartMessage,
} from '../../../contracts/typedData';
import type { ForgeContractReader } from '../chain/chainContracts';
import { forgeAlreadyClaimed, forgeNotFound, forgeNotOwned } from '../errors';
import type { ForgeIdPredictor } from '../chain/forgeIdPredictor';
import {
  completeIssue,
  issuerContext,
  usableNonce,
  type IssuerContext,
  type IssuerDependencies,
} from './issuerContext';
import type { SignatureRecord, TypedDataPayload } from '../../../models/IssuedSignature';

/** Dependencies of ForgeSignatureIssuer; `nonces` must read TheForge's getNonce. */
export interface ForgeSignatureIssuerDependencies extends IssuerDependencies {
  forge: ForgeContractReader;
  predictor: ForgeIdPredictor;
}

/** A start request, already validated (see addressFormat.ts and forgeInputs.ts). */
export interface ForgeStartRequest {
  forger: string;
  path: ForgePath;
  zenCommitted: bigint;
}

/** A claim request, already validated. */
export interface ForgeClaimRequest {
  forgeId: string;
  forger: string;
}

/** An issued start signature: the response fields plus the record to store. */
export interface IssuedForgeStart {
  forgeId: string;
  signature: string;
  nonce: bigint;
  /** Unix seconds: the start transaction must be mined at or before it (and at most 30 s earlier). */
  expiresAt: number;
  record: SignatureRecord;
}

/** An issued claim signature: the response fields plus the record to store. */
export interface IssuedForgeClaim {
  signature: string;
  nonce: bigint;
  record: SignatureRecord;
}

/**
 * Issues TheForge's EIP-712 signatures (SPEC 2.5, 2.6, 2.8). Balance, cooldown and rate-limit checks belong to
 * the caller and run before these methods; this class reads the nonce, predicts the forgeId, signs, and returns
 * what to answer and what to store.
 */
export class ForgeSignatureIssuer {
  private readonly ctx: IssuerContext;

  constructor(private readonly deps: ForgeSignatureIssuerDependencies) {
    this.ctx = issuerContext(deps);
  }

  /** Signs a ForgeStart for the forger's current nonce and the predicted forgeId. */
  async issueStart(request: ForgeStartRequest): Promise<IssuedForgeStart> {
    const startedAt = process.hrtime.bigint();
    const signer = await this.ctx.keys.getSigner(this.ctx.chainId);
    const nonce = await usableNonce(this.ctx, 'forge-start', this.deps.forge.address, request.forger);
    const predicted = await this.deps.predictor.predict({
      forger: request.forger,
      path: request.path,
      nonce,
    });
    const message: ForgeStartMessage = { ...request, forgeId: predicted.forgeId, nonce };
    const signature = await signer.signTypedData(this.domain(), FORGE_START_TYPES, { ...message });
    const record = completeIssue(this.ctx, startedAt, {
      kind: 'forge-start',
      contract: this.deps.forge.address,
      requester: request.forger,
      signer: signer.address,
      nonce: nonce.toString(),
      signature,
      payload: this.payload('ForgeStart', {
        forger: message.forger,
        path: message.path,
        zenCommitted: message.zenCommitted.toString(),
        forgeId: message.forgeId,
        nonce: nonce.toString(),
      }),
      expiresAt: new Date(predicted.timestamp * 1000),
    });
    return { forgeId: predicted.forgeId, signature, nonce, expiresAt: predicted.timestamp, record };
  }

  /**
   * Signs a ForgeClaim for a forge that is on chain, belongs to `forger` and is unclaimed; otherwise throws
   * `forgeNotFound`, `forgeNotOwned` or `forgeAlreadyClaimed` without signing.
   */
  async issueClaim(request: ForgeClaimRequest): Promise<IssuedForgeClaim> {
    const startedAt = process.hrtime.bigint();
    const forge = await this.deps.forge.getForge(request.forgeId);
    if (!forge) throw forgeNotFound(request.forgeId);
    if (forge.forger.toLowerCase() !== request.forger.toLowerCase()) throw forgeNotOwned(request.forgeId);
    if (forge.claimed) throw forgeAlreadyClaimed(request.forgeId);
    const signer = await this.ctx.keys.getSigner(this.ctx.chainId);
    const nonce = await usableNonce(this.ctx, 'forge-claim', this.deps.forge.address, request.forger);
    const message: ForgeClaimMessage = { forgeId: request.forgeId, forger: request.forger, nonce };
    const signature = await signer.signTypedData(this.domain(), FORGE_CLAIM_TYPES, { ...message });
    const record = completeIssue(this.ctx, startedAt, {
      kind: 'forge-claim',
      contract: this.deps.forge.address,
      requester: request.forger,
      signer: signer.address,
      nonce: nonce.toString(),
      signature,
      payload: this.payload('ForgeClaim', {
        forgeId: message.forgeId,
        forger: message.forger,
        nonce: nonce.toString(),
      }),
      expiresAt: null,
    });
    return { signature, nonce, record };
  }

  private domain(): ReturnType<typeof buildForgeDomain> {
    return buildForgeDomain(this.ctx.chainId, this.deps.forge.address);
  }

  private payload(
    primaryType: TypedDataPayload['primaryType'],
    message: TypedDataPayload['message'],
  ): TypedDataPayload {
    const types = primaryType === 'ForgeStart' ? FORGE_START_TYPES : FORGE_CLAIM_TYPES;
    return {
      format: 'eip712',
      domain: {
        name: FORGE_DOMAIN_NAME,
        version: FORGE_DOMAIN_VERSION,
        chainId: this.ctx.chainId,
        verifyingContract: this.deps.forge.address,
      },
      primaryType,
      types,
      message,
    };
  }
}
