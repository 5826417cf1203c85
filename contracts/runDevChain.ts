import { parseArgs } from 'node:util';
import { id, JsonRpcProvider, Network, Wallet } from 'ethers';
import { deployReferenceContracts } from './deploy';
import { startDevChain } from './devChain';

/**
 * `npm run contracts:chain -- --signer <address> [--chain-id 84532]`: a local chain for developing against the
 * signer. Starts the in-process EDR chain, deploys TheForge and PunkSeed with the given signer address, prints the
 * RPC URL, the contract addresses and funded player keys, and runs until interrupted. The keys are public test
 * keys derived from fixed labels: never fund them on a real network.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      signer: { type: 'string' },
      'chain-id': { type: 'string', default: '84532' },
      players: { type: 'string', default: '3' },
    },
  });
  if (!values.signer)
    throw new Error('--signer <address> is required (the address of the signer key you configured)');
  const chainId = Number(values['chain-id']);
  const keys = Array.from({ length: Number(values.players) + 1 }, (_, index) =>
    id(`forge-platform dev key ${index}`),
  );
  const chain = await startDevChain({ chainId, fundedKeys: keys });
  const provider = new JsonRpcProvider(chain.url, Network.from(chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  const deployment = await deployReferenceContracts(new Wallet(keys[0], provider), values.signer);
  console.log(`chain ${chainId} at ${chain.url}`);
  console.log(`TheForge  ${deployment.forgeAddress}`);
  console.log(`PunkSeed  ${deployment.seedAddress}`);
  console.log(`owner     ${new Wallet(keys[0]).address}  key ${keys[0]}`);
  for (const key of keys.slice(1)) console.log(`player    ${new Wallet(key).address}  key ${key}`);
  const stop = () => {
    provider.destroy();
    void chain.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
