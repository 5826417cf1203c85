import type { Config } from '../../platform/config';
import type { SupportedChainId } from '../../contracts/typedData';
import { parseAddress } from './addressFormat';
import { SignerConfigError } from './errors';

/** Where the signing key comes from (SIGNER_KEYSTORE_FILE / SIGNER_SECRETS_DIR, or a SecretSource in code). */
export interface SignerKeySettings {
  /** Encrypted JSON keystore; its password is the secret `signer-keystore-password-<chainId>`. */
  keystoreFile?: string;
  /** Directory of secret files; unset when the composition root passes its own SecretSource. */
  secretsDir?: string;
}

/** The signer's configuration, resolved and checked. */
export type SignerSettings =
  | { enabled: false }
  | {
      enabled: true;
      chainId: SupportedChainId;
      rpcUrl: string;
      forgeAddress: string;
      seedAddress: string;
      keys: SignerKeySettings;
      /** forgeId timestamp buffer, 10..30 s. */
      bufferSeconds: number;
      /** 0 disables the cooldown. */
      forgeCooldownMs: number;
      requestLimit: { limit: number; windowMs: number };
      nonceTtlMs: number;
      usageStartBlock?: number;
    };

const CONNECTION_VARIABLES = [
  'SIGNER_RPC_URL',
  'SIGNER_FORGE_ADDRESS',
  'SIGNER_SEED_ADDRESS',
  'SIGNER_KEYSTORE_FILE',
  'SIGNER_SECRETS_DIR',
  'SIGNER_USAGE_START_BLOCK',
] as const;

/**
 * Reads the signer's variables. Unset SIGNER_CHAIN_ID turns the signer off (the quick start needs no chain);
 * otherwise the RPC URL, both contracts and a key source are required. A half configuration never silently turns
 * the signer off: it throws SignerConfigError naming the variables, and start-up stops.
 * `hasSecretSource`: the composition root supplies its own SecretSource, so SIGNER_SECRETS_DIR is optional.
 */
export function signerSettings(config: Config, hasSecretSource = false): SignerSettings {
  if (config.SIGNER_CHAIN_ID === undefined) {
    const stray = CONNECTION_VARIABLES.filter((name) => config[name] !== undefined);
    if (stray.length > 0) {
      throw new SignerConfigError(
        `SIGNER_CHAIN_ID is required when ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set`,
      );
    }
    return { enabled: false };
  }
  const required: (typeof CONNECTION_VARIABLES)[number][] = [
    'SIGNER_RPC_URL',
    'SIGNER_FORGE_ADDRESS',
    'SIGNER_SEED_ADDRESS',
  ];
  if (!hasSecretSource) required.push('SIGNER_SECRETS_DIR');
  const missing = required.filter((name) => config[name] === undefined);
  if (missing.length > 0) {
    throw new SignerConfigError(`SIGNER_CHAIN_ID is set, so ${missing.join(', ')} must be set too`);
  }
  return {
    enabled: true,
    chainId: config.SIGNER_CHAIN_ID as SupportedChainId,
    rpcUrl: config.SIGNER_RPC_URL as string,
    forgeAddress: contractAddress(config.SIGNER_FORGE_ADDRESS as string, 'SIGNER_FORGE_ADDRESS'),
    seedAddress: contractAddress(config.SIGNER_SEED_ADDRESS as string, 'SIGNER_SEED_ADDRESS'),
    keys: { keystoreFile: config.SIGNER_KEYSTORE_FILE, secretsDir: config.SIGNER_SECRETS_DIR },
    bufferSeconds: config.SIGNER_FORGE_BUFFER_SECONDS,
    forgeCooldownMs: config.SIGNER_FORGE_COOLDOWN_SECONDS * 1000,
    requestLimit: { limit: config.SIGNER_RATE_LIMIT_PER_MINUTE, windowMs: 60_000 },
    nonceTtlMs: config.SIGNER_NONCE_CACHE_MS,
    usageStartBlock: config.SIGNER_USAGE_START_BLOCK,
  };
}

function contractAddress(value: string, variable: string): string {
  try {
    return parseAddress(value, variable);
  } catch (error) {
    throw new SignerConfigError((error as Error).message);
  }
}
