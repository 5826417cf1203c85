import type { Logger } from 'pino';
import type { AuditRecorder } from '../../../models/AuditEvent';
import { signatureNotUsed, signatureUnknown } from '../errors';
import { presentReuseReport } from '../presenters';
import type { SignatureRequestPolicy } from '../policy/requestPolicy';
import { reportReuseAttempt } from './reuseAlerts';
import { signatureHashOf, type SignatureKind } from '../../../models/IssuedSignature';
import type { MongoSignatureStore, SignatureRequester } from '../issuing/signatureStore';
import type { SignerCore } from '../issuing/signerCore';

/** Answer to a reuse report: the signature's hash and kind; it is now recorded as used. */
export interface ReuseReportResult {
  signatureHash: string;
  kind: SignatureKind;
  used: true;
}

/** Dependencies of the reuse-report command. */
export interface ReuseReportDependencies {
  core: SignerCore;
  store: MongoSignatureStore;
  policy: SignatureRequestPolicy;
  logger: Logger;
  /** The platform's audit log (reuse alerts). */
  audit?: AuditRecorder;
}

/**
 * A client reports that a transaction with one of our signatures reverted with SignatureAlreadyUsed (SPEC 7: a
 * replay). The report is checked before it alerts: the signature must be one this signer issued (404
 * `SIGNER_SIGNATURE_UNKNOWN`), for an address the caller may act for (`authorize`, 403), and the contract must
 * confirm it consumed it (`isSignatureUsed`; otherwise 409 `SIGNER_SIGNATURE_NOT_USED`, the revert had another
 * cause). Then the reuse alert fires (metric + warning) and the stored signature is marked used, even if the
 * usage tracker has not seen its event yet. Reports count against the address's request limit.
 */
export function createReuseReports(deps: ReuseReportDependencies) {
  const { core, store, policy } = deps;
  return {
    async report(
      signature: string,
      authorize: (requester: string) => Promise<SignatureRequester>,
      logger: Logger = deps.logger,
    ): Promise<ReuseReportResult> {
      const signatureHash = signatureHashOf(signature);
      const record = await store.findByHash(signatureHash);
      const contract = [core.forge, core.seed].find(
        (candidate) => candidate.address.toLowerCase() === record?.contract.toLowerCase(),
      );
      if (!record || !contract || record.chainId !== core.chainId) {
        throw signatureUnknown();
      }
      await authorize(record.requester);
      await policy.admitRequest(record.requester);
      if (!(await contract.isSignatureUsed(signatureHash))) {
        throw signatureNotUsed();
      }
      reportReuseAttempt(
        {
          kind: record.kind,
          reason: 'signature_already_used',
          chainId: record.chainId,
          contract: record.contract,
          requester: record.requester,
          nonce: BigInt(record.nonce),
          signatureHash,
        },
        logger,
        deps.audit,
      );
      await store.markUsedByReport(signatureHash);
      return presentReuseReport({ signatureHash, kind: record.kind });
    },
  };
}

/** The reuse-report command. */
export type ReuseReports = ReturnType<typeof createReuseReports>;
