import type http from 'node:http';
import type { BaseWallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { postJson } from './postJson';

/** The body of `POST /auth/wallet/verify`. */
export interface WalletProof {
  address: string;
  nonce: string;
  message: string;
  signature: string;
}

/**
 * A wallet sign-in proof for `wallet`: a fresh nonce from the bench platform on 127.0.0.1:`port`, and the
 * EIP-4361 message for `domain` (chain 8453) over it, signed.
 */
export async function walletProof(
  agent: http.Agent,
  port: number,
  domain: string,
  wallet: BaseWallet,
): Promise<WalletProof> {
  const { nonce } = JSON.parse((await postJson(agent, port, '/auth/wallet/nonce', {})).body) as {
    nonce: string;
  };
  const message = new SiweMessage({
    domain,
    address: wallet.address,
    uri: `http://${domain}/login`,
    version: '1',
    chainId: 8453,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  return { address: wallet.address, nonce, message, signature: await wallet.signMessage(message) };
}
