import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock';
import { signerKeyUnavailable } from '../errors';
import { KeystoreFileKeyProvider } from './keystoreKeys';
import type { SignerKeySettings } from '../settings';
import { SecretKeyProvider, type SecretSource, type SignerKeyProvider } from './signerKeys';

const SECRET_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * A SecretSource over a directory of files, one secret per file named after it: the layout of Docker and
 * Kubernetes secret mounts and of Vault Agent templates. Each read goes to the file, so replacing a file (write a
 * new one and rename it over the old) rotates the secret. One trailing newline is dropped.
 */
export function directorySecretSource(dir: string): SecretSource {
  return {
    async getSecret(name) {
      if (!SECRET_NAME.test(name)) throw new Error(`invalid secret name ${JSON.stringify(name)}`);
      try {
        return (await fs.readFile(path.join(dir, name), 'utf8')).replace(/\r?\n$/, '');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}

/** Name of the secret holding the keystore password of `chainId`. */
export const keystorePasswordSecret = (chainId: number) => `signer-keystore-password-${chainId}`;

/**
 * The key provider the configuration asks for: the encrypted keystore file (password from `secrets`) when
 * `keys.keystoreFile` is set, otherwise the hex private key in the secret `signer-private-key-<chainId>`.
 */
export function createKeyProvider(options: {
  chainId: number;
  keys: SignerKeySettings;
  secrets: SecretSource;
  clock: Clock;
  logger: Logger;
}): SignerKeyProvider {
  const { chainId, keys, secrets, clock, logger } = options;
  if (!keys.keystoreFile) return new SecretKeyProvider({ source: secrets, clock, logger });
  return new KeystoreFileKeyProvider({
    files: { [chainId]: keys.keystoreFile },
    password: async (id) => {
      const name = keystorePasswordSecret(id);
      const password = await secrets.getSecret(name).catch((error: unknown) => {
        throw signerKeyUnavailable(id, `secret ${name} could not be read`, error);
      });
      if (!password) throw signerKeyUnavailable(id, `secret ${name} is not set`);
      return password;
    },
    clock,
    logger,
  });
}
