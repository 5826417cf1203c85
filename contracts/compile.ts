import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InterfaceAbi } from 'ethers';

/**
 * Compiles the reference contracts with solc-js (the `solc` npm package, whose tarball bundles soljson, so
 * nothing is downloaded). Development and test tooling only: the product loads the committed ABIs in
 * `contracts/abi/`, never this module.
 */

/** The contracts the signer issues signatures for, by Solidity contract name. */
export const CONTRACT_NAMES = ['TheForge', 'PunkSeed'] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

/** ABI and creation bytecode of one contract. */
export interface CompiledContract {
  abi: InterfaceAbi;
  bytecode: string;
}

export type CompiledContracts = Record<ContractName, CompiledContract>;

/** The solc release the sources are built with; compile refuses any other. */
export const SOLC_VERSION = '0.8.30+commit.73712a01';

/** Compiler settings. Cancun is the newest EVM target both Base (OP Isthmus) and the test chain run. */
export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

const CONTRACTS_DIR = __dirname;
const SOURCE_FILES = ['SignatureGuard.sol', 'TheForge.sol', 'PunkSeed.sol'];

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: InterfaceAbi; evm: { bytecode: { object: string } } }>>;
}

function readSources(): Record<string, { content: string }> {
  return Object.fromEntries(
    SOURCE_FILES.map((file) => [file, { content: fs.readFileSync(path.join(CONTRACTS_DIR, file), 'utf8') }]),
  );
}

function openZeppelinVersion(): string {
  return (
    JSON.parse(fs.readFileSync(require.resolve('@openzeppelin/contracts/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
}

/** Resolves `@openzeppelin/contracts/...` imports from node_modules. */
function findImport(importPath: string): { contents: string } | { error: string } {
  const prefix = '@openzeppelin/contracts/';
  if (!importPath.startsWith(prefix)) return { error: `Unresolvable import ${importPath}` };
  const root = path.dirname(require.resolve('@openzeppelin/contracts/package.json'));
  const file = path.join(root, importPath.slice(prefix.length));
  if (!fs.existsSync(file)) return { error: `Import not found: ${importPath}` };
  return { contents: fs.readFileSync(file, 'utf8') };
}

/** Compiles the sources now (a few seconds: solc-js is WebAssembly). Throws on any compiler error. */
export function compileContracts(): CompiledContracts {
  // Required lazily: loading soljson takes seconds and only tooling needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { version(): string; compile(input: string, callbacks: object): string };
  if (!solc.version().startsWith(SOLC_VERSION)) {
    throw new Error(`solc ${SOLC_VERSION} required, found ${solc.version()}`);
  }
  const input = { language: 'Solidity', sources: readSources(), settings: SOLC_SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  return Object.fromEntries(
    CONTRACT_NAMES.map((name) => {
      const artifact = output.contracts[`${name}.sol`]?.[name];
      if (!artifact) throw new Error(`Compiler output lacks ${name}`);
      return [name, { abi: artifact.abi, bytecode: `0x${artifact.evm.bytecode.object}` }];
    }),
  ) as CompiledContracts;
}

let memo: { key: string; contracts: CompiledContracts } | undefined;

/**
 * Like `compileContracts`, memoised in memory and on disk (under the OS temp dir, keyed by a hash of the
 * sources, compiler and settings) so parallel test workers compile once between source changes.
 */
export function compileContractsCached(
  cacheDir = path.join(os.tmpdir(), 'forge-platform-solc'),
): CompiledContracts {
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        sources: readSources(),
        SOLC_VERSION,
        SOLC_SETTINGS,
        openZeppelin: openZeppelinVersion(),
      }),
    )
    .digest('hex');
  if (memo?.key === key) return memo.contracts;
  const file = path.join(cacheDir, `${key}.json`);
  let contracts: CompiledContracts;
  if (fs.existsSync(file)) {
    contracts = JSON.parse(fs.readFileSync(file, 'utf8')) as CompiledContracts;
  } else {
    contracts = compileContracts();
    fs.mkdirSync(cacheDir, { recursive: true });
    // Write then rename, so a concurrent reader never sees a partial file.
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, JSON.stringify(contracts));
    fs.renameSync(partial, file);
  }
  memo = { key, contracts };
  return contracts;
}
