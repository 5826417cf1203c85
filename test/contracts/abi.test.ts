import fs from 'node:fs';
import path from 'node:path';
import { CONTRACT_NAMES, compileContracts, type CompiledContracts } from '../../contracts/compile';

let compiled: CompiledContracts;

beforeAll(() => {
  compiled = compileContracts();
});

describe('committed ABIs', () => {
  it('match a fresh compilation of the Solidity sources (run `npm run contracts:abi` after editing them)', () => {
    for (const name of CONTRACT_NAMES) {
      const file = path.join(__dirname, '../../contracts/abi', `${name}.json`);
      expect({ name, abi: JSON.parse(fs.readFileSync(file, 'utf8')) }).toEqual({
        name,
        abi: compiled[name].abi,
      });
    }
  });

  it('expose the entry points and custom errors of SPEC 2.8', () => {
    const { TheForge, PunkSeed } = compiled;
    const signatures = (abi: unknown) =>
      (abi as { type: string; name?: string; inputs?: { type: string }[] }[])
        .filter((item) => item.type === 'function' || item.type === 'error')
        .map(
          (item) => `${item.type} ${item.name}(${(item.inputs ?? []).map((input) => input.type).join(',')})`,
        );

    expect(signatures(TheForge.abi)).toEqual(
      expect.arrayContaining([
        'function startForge(uint8,uint256,bytes)',
        'function claimForge(bytes32,bytes)',
        'function getNonce(address)',
        'function domainSeparator()',
        'error InvalidSignature()',
        'error SignatureAlreadyUsed(bytes32)',
      ]),
    );
    expect(signatures(PunkSeed.abi)).toEqual(
      expect.arrayContaining([
        'function mintWithSignature(bytes)',
        'function getNonce(address)',
        'error InvalidSignature()',
        'error SignatureAlreadyUsed(bytes32)',
      ]),
    );
  });
});
