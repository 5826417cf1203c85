import { z } from 'zod';
import type { SignerArea } from '../../signer';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { signatureRequestTools } from './signatureRequests';

const SignerStatusSchema = z.object({
  enabled: z.boolean(),
  ready: z.boolean().optional().meta({ description: 'The latest signer check passed' }),
  chain_id: z.number().int().optional(),
  forge_address: z.string().optional(),
  seed_address: z.string().optional(),
  signer: z.string().optional().meta({ description: 'Address of the signing key the contracts expect' }),
  checked_at: z.string().nullable().optional(),
  code: z.string().optional().meta({ description: 'Why the signer is stopped' }),
  reason: z.string().optional(),
});

/**
 * The signer worker: the contract-signature issuer's state, and signature requests (confirmed on 2026-07-28). Its
 * tools stay callable while it is down: they answer as the routes do (SIGNER_DISABLED, the 503 codes).
 */
export function signerWorker(signer: Pick<SignerArea, 'status' | 'signatures'>): Worker {
  const describe = () => {
    const status = signer.status();
    if (!status.enabled) return { enabled: false };
    return {
      enabled: true,
      ready: status.ready,
      chain_id: status.chainId,
      forge_address: status.forgeAddress,
      seed_address: status.seedAddress,
      checked_at: status.checkedAt,
      ...(status.ready ? { signer: status.signer } : { code: status.code, reason: status.reason }),
    };
  };
  return {
    name: 'signer',
    description:
      'Contract signatures for TheForge and PunkSeed: forge start, forge claim and seed mint for your wallets, ' +
      'and whether issuing is configured and ready.',
    stores: ['mongo'],
    probe: () => {
      const status = signer.status();
      if (!status.enabled)
        return { state: 'down', reason: 'signature issuing is not configured (SIGNER_CHAIN_ID unset)' };
      return status.ready ? { state: 'up' } : { state: 'down', reason: `${status.code}: ${status.reason}` };
    },
    tools: [
      defineTool({
        name: 'signer_status',
        title: 'Signature issuer status',
        description:
          'Whether contract-signature issuing is configured and ready: chain, contract addresses, signer address, ' +
          'or the reason it is stopped (wrong key, chain unreachable).',
        input: z.strictObject({}),
        output: SignerStatusSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        whileDown: true,
        handler: async () => describe(),
        summarise: (status) =>
          !status.enabled
            ? 'Signature issuing is not configured on this server.'
            : status.ready
              ? `Signer ready on chain ${status.chain_id} (${status.signer}).`
              : `Signer stopped: ${status.code}: ${status.reason}`,
      }),
      ...signatureRequestTools(signer),
    ],
  };
}
