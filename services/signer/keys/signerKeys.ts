import {
  concat,
  keccak256,
  TypedDataEncoder,
  Wallet,
  type BaseWallet,
  type TypedDataDomain,
  type TypedDataField,
} from 'ethers';
import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../../platform/clock';
import { signerKeyUnavailable } from '../errors';
import { RefreshingKeys } from './refreshingKeys';

/**
 * Signing keys, one per chain id, behind a provider interface so the key can live in an encrypted keystore file
 * (keystoreKeys.ts), a secret manager or a hardware module. Keys are rotatable without a restart and never leave
 * the provider: callers get a `ChainSigner` that can sign but does not expose, log or serialise the key.
 */

/** A key that signs for one chain. `address` is the only identifying data it reveals. */
export interface ChainSigner {
  readonly address: string;
  /** EIP-712 signature over `value` of the given domain and types. */
  signTypedData(
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string>;
  /** EIP-191 personal-message signature (pass bytes to sign a 32-byte hash). */
  signMessage(message: string | Uint8Array): Promise<string>;
}

/** Source of the signing key for each chain id. */
export interface SignerKeyProvider {
  /** The current key for `chainId`; throws `signerKeyUnavailable` when there is none. */
  getSigner(chainId: number): Promise<ChainSigner>;
  /** Forgets loaded keys (of `chainId`, or all) so the next `getSigner` reads them again. */
  rotate(chainId?: number): Promise<void>;
}

// Encoders per types object: building one parses the type graph, which costs more than the signature itself.
const encoders = new WeakMap<Record<string, TypedDataField[]>, TypedDataEncoder>();

function encoderFor(types: Record<string, TypedDataField[]>): TypedDataEncoder {
  let encoder = encoders.get(types);
  if (!encoder) {
    encoder = TypedDataEncoder.from(types);
    encoders.set(types, encoder);
  }
  return encoder;
}

// Domain separators by domain fields: a signer serves one or two deployments, so this stays tiny.
const domainSeparators = new Map<string, string>();

function domainSeparator(domain: TypedDataDomain): string {
  const key = JSON.stringify([
    domain.name,
    domain.version,
    String(domain.chainId),
    domain.verifyingContract,
    domain.salt,
  ]);
  let separator = domainSeparators.get(key);
  if (!separator) {
    separator = TypedDataEncoder.hashDomain(domain);
    if (domainSeparators.size >= 64) domainSeparators.clear();
    domainSeparators.set(key, separator);
  }
  return separator;
}

/** Wraps a wallet so only the address and the signing operations are reachable. */
export class WalletChainSigner implements ChainSigner {
  readonly address: string;
  readonly #wallet: BaseWallet;

  constructor(wallet: BaseWallet) {
    this.#wallet = wallet;
    this.address = wallet.address;
  }

  signTypedData(
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string> {
    // Same digest as ethers' signTypedData, minus its ENS-resolution pass: every address here is already hex (a
    // name would fail the encoder's address check); encoder and domain separator are reused across calls.
    const digest = keccak256(concat(['0x1901', domainSeparator(domain), encoderFor(types).hash(value)]));
    return Promise.resolve(this.#wallet.signingKey.sign(digest).serialized);
  }

  signMessage(message: string | Uint8Array): Promise<string> {
    return this.#wallet.signMessage(message);
  }

  /** Serialises (and logs) as the address only. */
  toJSON(): { address: string } {
    return { address: this.address };
  }
}

/** A secret store (vault, cloud secret manager, or the process environment via `envSecretSource`). */
export interface SecretSource {
  /** The secret's current value, or undefined when it does not exist. */
  getSecret(name: string): Promise<string | undefined>;
}

/**
 * A SecretSource over a snapshot of environment variables (passed in by platform/config): the secret
 * `signer-private-key-8453` is read from `SIGNER_PRIVATE_KEY_8453`.
 */
export function envSecretSource(env: Readonly<Record<string, string | undefined>>): SecretSource {
  return { getSecret: async (name) => env[name.toUpperCase().replace(/-/g, '_')] };
}

/** Options of SecretKeyProvider. */
export interface SecretKeyProviderOptions {
  source: SecretSource;
  /** Secret name per chain; default `signer-private-key-<chainId>`. */
  secretName?: (chainId: number) => string;
  /** How long a loaded key is used before the secret is read again (picks up rotations); default 60 s. */
  refreshMs?: number;
  clock?: Clock;
  logger?: Logger;
}

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/** Key provider over a SecretSource holding a hex private key per chain id. */
export class SecretKeyProvider implements SignerKeyProvider {
  private readonly keys: RefreshingKeys;
  private readonly secretName: (chainId: number) => string;

  constructor(private readonly options: SecretKeyProviderOptions) {
    this.secretName = options.secretName ?? ((chainId) => `signer-private-key-${chainId}`);
    this.keys = new RefreshingKeys(
      // A secret has no cheap version: it is read again every refreshMs.
      { version: async () => undefined, load: (chainId) => this.load(chainId) },
      {
        recheckMs: options.refreshMs ?? 60_000,
        clock: options.clock ?? systemClock,
        logger: options.logger ?? pino({ level: 'silent' }),
      },
    );
  }

  getSigner(chainId: number): Promise<ChainSigner> {
    return this.keys.get(chainId);
  }

  private async load(chainId: number): Promise<ChainSigner> {
    const name = this.secretName(chainId);
    let secret: string | undefined;
    try {
      secret = await this.options.source.getSecret(name);
    } catch (error) {
      throw signerKeyUnavailable(chainId, `secret ${name} could not be read`, error);
    }
    const key = secret?.trim().replace(/^(?!0x)/, '0x') ?? '';
    if (!PRIVATE_KEY.test(key)) {
      const reason = secret ? 'is not a 32-byte hex private key' : 'is not set';
      throw signerKeyUnavailable(chainId, `secret ${name} ${reason}`);
    }
    try {
      return new WalletChainSigner(new Wallet(key));
    } catch {
      // The library's error could echo the key material, so it is dropped rather than chained.
      throw signerKeyUnavailable(chainId, `secret ${name} is not a valid secp256k1 private key`);
    }
  }

  async rotate(chainId?: number): Promise<void> {
    this.keys.forget(chainId);
  }
}
