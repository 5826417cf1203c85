import type { BaseWallet } from 'ethers';
import { SiweMessage } from 'siwe';
import request from 'supertest';

/** Fields of a SIWE message a test may change; the rest come from the test server's expectations. */
export interface SiweMessageFields {
  domain: string;
  address: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  statement?: string;
}

/** An EIP-4361 message for `wallet` with test defaults (domain localhost, chain 8453), overridable per field. */
export function buildSiweMessage(
  wallet: BaseWallet,
  nonce: string,
  overrides: Partial<SiweMessageFields> = {},
): string {
  return new SiweMessage({
    domain: 'localhost',
    address: wallet.address,
    uri: 'https://localhost/login',
    version: '1',
    chainId: 8453,
    nonce,
    issuedAt: new Date().toISOString(),
    statement: 'Sign in to Forge Platform.',
    ...overrides,
  }).prepareMessage();
}

/** Runs the whole wallet flow against `url`: nonce, sign, verify. Returns the verify response. */
export async function signInWithWallet(url: string, wallet: BaseWallet, token?: string) {
  const { body } = await request(url).post('/auth/wallet/nonce').expect(201);
  const message = buildSiweMessage(wallet, body.nonce);
  const signature = await wallet.signMessage(message);
  const req = request(url).post('/auth/wallet/verify');
  if (token) req.set('Authorization', `Bearer ${token}`);
  return req.send({ address: wallet.address, signature, nonce: body.nonce, message });
}
