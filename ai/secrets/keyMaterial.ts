import type { RawFinding } from './secretFinding';

/** A PEM private key block (RSA, EC, OPENSSH, ENCRYPTED, plain PKCS#8), to its END line or the end of the text. */
const PEM =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g;

/**
 * A name that says its value is a secret key, anywhere in an identifier: private/secret/signing/wallet/deployer
 * keys and api/access/auth keys (`PRIVATE_KEY`, `MY_APP_PRIVATE_KEY`, `privateKey`, `--private-key`, `signerKey`,
 * `apiKey`), with an optional `hex`/`bytes` suffix, and a bare `pk`. Never a bare `key`, nor `hashKey`,
 * `cacheKey`, `publicKey`: their 64-hex values are digests or public.
 */
const KEY_NAME = String.raw`(?:(?:priv(?:ate)?|secret|signing|signer|wallet|deployer|owner|account|api|access|auth|master|seed)[_-]?key(?:[_-]?(?:hex|bytes|raw|value))?|(?<![A-Za-z0-9_])pk)`;

/**
 * A 32-byte hex value (0x optional) assigned to a key-named variable: `PRIVATE_KEY=0x…`, `privateKey: "…"`,
 * `"private_key": "…"`, `const signerKey = '…'`, `--private-key 0x…`. The name must end where the assignment
 * starts and the value must end after 64 digits (a 65-byte public key or a longer digest does not match).
 */
const ASSIGNED_HEX = new RegExp(
  String.raw`${KEY_NAME}["']?[ \t]*(?:[:=]|=>|[ \t])[ \t]*["'\x60]?(?:0x)?[0-9a-fA-F]{64}(?![0-9a-zA-Z])`,
  'gi',
);

/** An encrypted JSON keystore (Web3 Secret Storage): a hex `ciphertext` beside `kdf`/`cipherparams`/`mac`. */
const KEYSTORE_CIPHERTEXT = /"ciphertext"\s*:\s*"[0-9a-fA-F]{32,}"/g;
const KEYSTORE_CONTEXT = /"(?:kdf|kdfparams|cipherparams|mac)"\s*:/;

/** Private keys with key context: PEM blocks, key-named 32-byte hex values, keystore JSON. */
export function findKeyMaterial(text: string): RawFinding[] {
  const found: RawFinding[] = [];
  for (const match of text.matchAll(PEM))
    found.push({ kind: 'private_key', rule: 'pem_private_key', start: match.index, length: match[0].length });
  for (const match of text.matchAll(ASSIGNED_HEX))
    found.push({
      kind: 'private_key',
      rule: 'assigned_hex_key',
      start: match.index,
      length: match[0].length,
    });
  for (const match of text.matchAll(KEYSTORE_CIPHERTEXT)) {
    const around = text.slice(Math.max(0, match.index - 800), match.index + match[0].length + 800);
    if (KEYSTORE_CONTEXT.test(around))
      found.push({ kind: 'private_key', rule: 'keystore_json', start: match.index, length: match[0].length });
  }
  return found;
}
