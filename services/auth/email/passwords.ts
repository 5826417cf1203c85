import { Algorithm, hash, verify } from '@node-rs/argon2';

/** Argon2id with OWASP's minimum parameters (19 MiB memory, 2 iterations, 1 lane). */
const PARAMETERS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** A PHC-format argon2id hash of `password`, with a fresh random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMETERS);
}

// Verified against when the account does not exist, so a login takes as long either way.
let decoyHash: Promise<string> | undefined;

/**
 * True when `password` matches `passwordHash`; with no hash, spends the same time and answers false. A stored hash
 * that cannot be read (corrupt, truncated, another format) also answers false, so the caller sees a failed login,
 * and is reported to `onCorrupt` so an operator learns of it.
 */
export async function passwordMatches(
  passwordHash: string | undefined,
  password: string,
  onCorrupt: (error: unknown) => void,
): Promise<boolean> {
  if (!passwordHash) {
    decoyHash ??= hashPassword('decoy password for absent accounts');
    await verify(await decoyHash, password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch (error) {
    onCorrupt(error);
    return false;
  }
}
