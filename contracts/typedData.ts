import { solidityPackedKeccak256, type TypedDataDomain, type TypedDataField } from 'ethers';

/**
 * The signed structures of SPEC.md 2.8, defined once for the signer and the tests: the EIP-712 domain and
 * types of TheForge, the forgeId formula, and the seed-token mint message.
 */

/** EIP-712 domain name of the forging contract. */
export const FORGE_DOMAIN_NAME = 'TheForge';
/** EIP-712 domain version of the forging contract. */
export const FORGE_DOMAIN_VERSION = '2';

/** Chain ids the signer issues for: 8453 is Base mainnet, 84532 Base Sepolia. */
export const SUPPORTED_CHAIN_IDS = [8453, 84532] as const;
export type SupportedChainId = (typeof SUPPORTED_CHAIN_IDS)[number];

/** Whether `chainId` is one the signer may issue for. */
export function isSupportedChainId(chainId: number): chainId is SupportedChainId {
  return (SUPPORTED_CHAIN_IDS as readonly number[]).includes(chainId);
}

/** Forge paths, as the contract's `ForgePath` enum (uint8 on the wire). Only 0 (labor) is named by the spec. */
export enum ForgePath {
  Labor = 0,
  Craft = 1,
  Trade = 2,
  Wisdom = 3,
  Chaos = 4,
}

/** Number of forge paths; valid path values are 0 to FORGE_PATH_COUNT - 1. */
export const FORGE_PATH_COUNT = 5;

/**
 * Seconds before its signed timestamp during which the contract accepts a start signature (TheForge.START_WINDOW).
 * The predictor's buffer must not exceed it.
 */
export const FORGE_START_WINDOW_SECONDS = 30;

/** ForgeStart members in the spec's order. */
export const FORGE_START_TYPES: Record<'ForgeStart', TypedDataField[]> = {
  ForgeStart: [
    { name: 'forger', type: 'address' },
    { name: 'path', type: 'uint8' },
    { name: 'zenCommitted', type: 'uint256' },
    { name: 'forgeId', type: 'bytes32' },
    { name: 'nonce', type: 'uint256' },
  ],
};

/** ForgeClaim members in the spec's order. */
export const FORGE_CLAIM_TYPES: Record<'ForgeClaim', TypedDataField[]> = {
  ForgeClaim: [
    { name: 'forgeId', type: 'bytes32' },
    { name: 'forger', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
};

/** The ForgeStart message a start signature covers. */
export interface ForgeStartMessage {
  forger: string;
  path: ForgePath;
  zenCommitted: bigint;
  forgeId: string;
  nonce: bigint;
}

/** The ForgeClaim message a claim (completion) signature covers. */
export interface ForgeClaimMessage {
  forgeId: string;
  forger: string;
  nonce: bigint;
}

/** The EIP-712 domain of a TheForge deployment. */
export function buildForgeDomain(chainId: number | bigint, verifyingContract: string): TypedDataDomain {
  return { name: FORGE_DOMAIN_NAME, version: FORGE_DOMAIN_VERSION, chainId, verifyingContract };
}

/** Inputs of the forgeId formula. */
export interface ForgeIdInput {
  forger: string;
  path: ForgePath;
  /** Unix seconds: the block timestamp the start transaction is expected in. */
  timestamp: number | bigint;
  nonce: bigint;
}

/** forgeId = keccak256(abi.encodePacked(address forger, uint8 path, uint256 timestamp, uint256 nonce)). */
export function computeForgeId({ forger, path, timestamp, nonce }: ForgeIdInput): string {
  return solidityPackedKeccak256(
    ['address', 'uint8', 'uint256', 'uint256'],
    [forger, path, timestamp, nonce],
  );
}

/** The tag that closes every seed mint message. */
export const PUNK_SEED_MINT_TAG = 'MINT_PUNK_SEED';

/**
 * keccak256(abi.encodePacked(address to, uint256 nonce, "MINT_PUNK_SEED")): the 32-byte hash the backend signs
 * as an EIP-191 personal message (sign its bytes, not its hex string).
 */
export function punkSeedMintHash(to: string, nonce: bigint): string {
  return solidityPackedKeccak256(['address', 'uint256', 'string'], [to, nonce, PUNK_SEED_MINT_TAG]);
}
