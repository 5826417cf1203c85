import fs from 'node:fs';
import path from 'node:path';
import { ContractFactory, type Contract, type Signer } from 'ethers';

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

const FIXTURES = path.join(__dirname, '../fixtures/contracts');
let compiled: SolcOutput['contracts'] | undefined;

/** Compiles the test-only Solidity fixtures in test/fixtures/contracts once per process. */
function fixtures(): SolcOutput['contracts'] {
  if (compiled) return compiled;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { compile(input: string): string };
  const sources = Object.fromEntries(
    fs
      .readdirSync(FIXTURES)
      .filter((file) => file.endsWith('.sol'))
      .map((file) => [file, { content: fs.readFileSync(path.join(FIXTURES, file), 'utf8') }]),
  );
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources,
        settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  compiled = output.contracts;
  return compiled;
}

/** Deploys fixture contract `name` from `file` with constructor `args`. */
export async function deployFixture(
  file: string,
  name: string,
  deployer: Signer,
  ...args: unknown[]
): Promise<Contract> {
  const artifact = fixtures()[file]?.[name];
  if (!artifact) throw new Error(`No fixture ${file}:${name}`);
  const contract = await new ContractFactory(
    artifact.abi as never,
    `0x${artifact.evm.bytecode.object}`,
    deployer,
  ).deploy(...args);
  await contract.waitForDeployment();
  return contract as Contract;
}
