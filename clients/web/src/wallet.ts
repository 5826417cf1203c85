import { getAddress } from 'ethers/address';
import { api, type SessionBody } from './api';

/** An injected EIP-1193 provider (MetaMask, Rabby, a test double). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/** The page's wallet, when the browser has one. */
export function injectedWallet(): Eip1193Provider | undefined {
  return window.ethereum;
}

/** The EIP-4361 message for this page: its host as the domain, so the server's SIWE_DOMAIN must name it. */
export function siweMessage(fields: {
  address: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
}): string {
  return [
    `${location.host} wants you to sign in with your Ethereum account:`,
    fields.address,
    '',
    'Sign in to Forge Platform.',
    '',
    `URI: ${location.origin}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
  ].join('\n');
}

/** UTF-8 text as 0x-hex, the form `personal_sign` takes. */
function toHex(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Sign-In with Ethereum: ask the wallet for an account, get a nonce, have the wallet sign the message and post it
 * to verify. With `linkToken` (a guest or email session) the wallet is linked to that account, keeping its
 * character.
 */
export async function signInWithWallet(provider: Eip1193Provider, linkToken?: string): Promise<SessionBody> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  const first = accounts[0];
  if (!first) throw new Error('The wallet shared no account');
  const address = getAddress(first);
  const chainId = Number.parseInt(String(await provider.request({ method: 'eth_chainId' })), 16);
  const { nonce } = await api<{ nonce: string }>('POST', '/auth/wallet/nonce');
  const message = siweMessage({ address, chainId, nonce, issuedAt: new Date() });
  const signature = (await provider.request({
    method: 'personal_sign',
    params: [toHex(message), address],
  })) as string;
  return api<SessionBody>('POST', '/auth/wallet/verify', {
    token: linkToken,
    body: { address, signature, nonce, message },
  });
}
