import { isError, type Contract, type ContractTransactionReceipt, type Wallet } from 'ethers';

/** A decoded custom-error revert. */
export interface DecodedRevert {
  name: string;
  args: unknown[];
}

/**
 * Runs `action` and returns the contract's custom error it reverted with, decoded by ethers from the node's revert
 * data; fails if it did not revert or the revert is not one of `contract`'s errors.
 */
export async function revertOf(action: Promise<unknown>, contract: Contract): Promise<DecodedRevert> {
  try {
    await action;
  } catch (error) {
    if (isError(error, 'CALL_EXCEPTION') && error.data) {
      const parsed = contract.interface.parseError(error.data);
      if (parsed) return { name: parsed.name, args: [...parsed.args] };
    }
    throw error;
  }
  throw new Error('expected a revert, but the call succeeded');
}

/** Sends `method(...args)` to `contract` from `wallet` and waits for the receipt. */
export async function send(
  contract: Contract,
  wallet: Wallet,
  method: string,
  ...args: unknown[]
): Promise<ContractTransactionReceipt> {
  const tx = await (contract.connect(wallet) as Contract).getFunction(method).send(...args);
  const receipt = await tx.wait();
  if (!receipt) throw new Error(`${method} was not mined`);
  return receipt;
}

/** The named events of `receipt` emitted by `contract`, decoded. */
export function eventsOf(receipt: ContractTransactionReceipt, contract: Contract): DecodedRevert[] {
  return receipt.logs.flatMap((log) => {
    const parsed = contract.interface.parseLog(log);
    return parsed ? [{ name: parsed.name, args: [...parsed.args] }] : [];
  });
}
