import { ContractFactory, type Contract, type Signer } from 'ethers';
import { compileContractsCached, type ContractName } from './compile';

/** Both reference contracts, deployed. */
export interface ReferenceDeployment {
  forge: Contract;
  seed: Contract;
  forgeAddress: string;
  seedAddress: string;
}

/**
 * Deploys TheForge and PunkSeed (compiled from source) with `signerAddress` as the accepted signer and the
 * deployer as owner. Development and test tooling; production deployments go through the contracts' own release.
 */
export async function deployReferenceContracts(
  deployer: Signer,
  signerAddress: string,
): Promise<ReferenceDeployment> {
  const compiled = compileContractsCached();
  const owner = await deployer.getAddress();
  const deploy = async (name: ContractName): Promise<Contract> => {
    const factory = new ContractFactory(compiled[name].abi, compiled[name].bytecode, deployer);
    const contract = await factory.deploy(signerAddress, owner);
    await contract.waitForDeployment();
    return contract as Contract;
  };
  const forge = await deploy('TheForge');
  const seed = await deploy('PunkSeed');
  return { forge, seed, forgeAddress: await forge.getAddress(), seedAddress: await seed.getAddress() };
}
