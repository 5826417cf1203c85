import { Contract, hashMessage, isError, type Provider } from 'ethers';
import { DependencyUnavailableError } from '../../../platform/errors';

const EIP1271_ABI = ['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)'];
/** What `isValidSignature` returns for a signature the contract accepts. */
const EIP1271_MAGIC_VALUE = '0x1626ba7e';

/**
 * EIP-1271: whether the smart-contract wallet at `address` accepts `signature` for the EIP-191 personal message
 * `message` (hashed from the exact signed text). An account without code, a revert or any other return value
 * means no; an RPC that cannot answer is a 503 (ETH_RPC_UNAVAILABLE), never a silent "invalid signature".
 */
export async function contractWalletAccepts(
  provider: Provider,
  address: string,
  message: string,
  signature: string,
): Promise<boolean> {
  const wallet = new Contract(address, EIP1271_ABI, provider);
  try {
    const result: unknown = await wallet
      .getFunction('isValidSignature')
      .staticCall(hashMessage(message), signature);
    return result === EIP1271_MAGIC_VALUE;
  } catch (error) {
    // CALL_EXCEPTION: the call reverted; BAD_DATA: no code at the address (an EOA) or not an EIP-1271 answer.
    if (isError(error, 'CALL_EXCEPTION') || isError(error, 'BAD_DATA')) return false;
    throw new DependencyUnavailableError('The Ethereum RPC', 'ETH_RPC_UNAVAILABLE', error);
  }
}
