import { Wallet, verifyMessage } from 'ethers';
import { recoverPersonalSigner } from '../../../../services/auth/wallet/signatureRecovery';

describe('recoverPersonalSigner', () => {
  it('agrees with ethers on random wallets and messages', async () => {
    for (let i = 0; i < 20; i++) {
      const wallet = Wallet.createRandom();
      const message = `Sign in ${i} ${'x'.repeat(i * 7)} ${'é🔥'.repeat(i % 3)}\nnonce ${i}`;
      const signature = await wallet.signMessage(message);
      expect(recoverPersonalSigner(message, signature)).toBe(wallet.address.toLowerCase());
      expect(recoverPersonalSigner(message, signature)).toBe(verifyMessage(message, signature).toLowerCase());
    }
  });

  it('recovers non-canonical encodings (v as 0/1) through ethers', async () => {
    const wallet = Wallet.createRandom();
    const signature = await wallet.signMessage('hello');
    const v = parseInt(signature.slice(-2), 16) - 27;
    const compact = `${signature.slice(0, -2)}${v.toString(16).padStart(2, '0')}`;
    expect(recoverPersonalSigner('hello', compact)).toBe(wallet.address.toLowerCase());
  });

  it('recovers someone else for a tampered message', async () => {
    const wallet = Wallet.createRandom();
    const signature = await wallet.signMessage('original');
    expect(recoverPersonalSigner('tampered', signature)).not.toBe(wallet.address.toLowerCase());
  });

  it('answers undefined for malformed signatures', () => {
    expect(recoverPersonalSigner('m', '0x1234')).toBeUndefined();
    expect(recoverPersonalSigner('m', `0x${'00'.repeat(65)}`)).toBeUndefined();
    expect(recoverPersonalSigner('m', 'not hex')).toBeUndefined();
  });
});
