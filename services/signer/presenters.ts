import type { ForgeStartResponse, ReuseReportResponse, SignatureResponse } from './schemas';

/** A signature as an issuer returns it: the bytes and the contract nonce they carry. */
interface IssuedSignature {
  signature: string;
  nonce: bigint;
}

/** The contract nonce as a JSON number; a nonce past 2^53 - 1 cannot be answered exactly, so it is refused. */
function responseNonce(nonce: bigint): number {
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`nonce ${nonce} exceeds a JSON-safe integer`);
  return Number(nonce);
}

/** SPEC 2.5: a start signature with the forgeId it commits to and the deadline it must be mined by. */
export function presentForgeStart(
  issued: IssuedSignature & { forgeId: string; expiresAt: number },
): ForgeStartResponse {
  return {
    forgeId: issued.forgeId,
    signature: issued.signature,
    nonce: responseNonce(issued.nonce),
    expiresAt: issued.expiresAt,
  };
}

/** SPEC 2.6, 2.7: a claim or mint signature and its nonce. */
export function presentSignature(issued: IssuedSignature): SignatureResponse {
  return { signature: issued.signature, nonce: responseNonce(issued.nonce) };
}

/** A confirmed reuse report: the signature's hash and kind, now recorded as used. */
export function presentReuseReport(report: Omit<ReuseReportResponse, 'used'>): ReuseReportResponse {
  return { signatureHash: report.signatureHash, kind: report.kind, used: true };
}
