import { Wallet, verifyMessage } from 'ethers';
import { recoverPersonalSigner } from '../../../services/auth/signatureRecovery';

describe('recoverPersonalSigner', () => {
  it('agrees with ethers on random wallets and messages', async () => {
    for (let i = 0; i < 20; i++) {
      const wallet = Wallet.createRandom();
      const message = `Sign in ${i} ${'x'.repeat(i * 7)}\nnonce ${i}`;
      const signature = await wallet.signMessage(message);
      expect(recoverPersonalSigner(message, signature)).toBe(wallet.address);
      expect(recoverPersonalSigner(message, signature)).toBe(verifyMessage(message, signature));
    }
  });

  it('recovers someone else for a tampered message', async () => {
    const wallet = Wallet.createRandom();
    const signature = await wallet.signMessage('original');
    expect(recoverPersonalSigner('tampered', signature)).not.toBe(wallet.address);
  });

  it('answers undefined for malformed signatures', () => {
    expect(recoverPersonalSigner('m', '0x1234')).toBeUndefined();
    expect(recoverPersonalSigner('m', `0x${'00'.repeat(65)}`)).toBeUndefined();
    expect(recoverPersonalSigner('m', 'not hex')).toBeUndefined();
  });
});
