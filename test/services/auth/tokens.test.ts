import { newNonce, newSessionToken, newVerificationCode } from '../../../services/auth/tokens';

describe('random tokens', () => {
  it('never repeats a token, nonce or code, across many refills of the random pool', () => {
    const seen = new Set<string>();
    const bytesSeen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const token = newSessionToken();
      const nonce = newNonce();
      const code = newVerificationCode();
      expect(token).toMatch(/^fps_[A-Za-z0-9_-]{43}$/);
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
      for (const value of [token, nonce, code]) seen.add(value);
      // No byte sequence is handed out twice, even partly overlapping another value's.
      for (const bytes of [Buffer.from(token.slice(4), 'base64url'), Buffer.from(nonce, 'hex')])
        bytesSeen.add(bytes.subarray(0, 8).toString('hex'));
    }
    expect(seen.size).toBe(6000);
    expect(bytesSeen.size).toBe(4000);
  });
});
