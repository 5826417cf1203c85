import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { seededRandom } from '../../../../platform/seededRandom';
import { parseCommonForm, parseSiweMessage } from '../../../../services/auth/wallet/siweMessage';

/** What `siwe` itself makes of a text: its fields, or the message of the error it throws. */
function reference(text: string): { fields: Record<string, unknown> } | { error: string } {
  try {
    const message = new SiweMessage(text);
    const { scheme, domain, address, statement, uri, version, chainId, nonce, issuedAt } = message;
    const { expirationTime, notBefore, requestId, resources } = message;
    return {
      fields: {
        scheme,
        domain,
        address,
        statement,
        uri,
        version,
        chainId,
        nonce,
        issuedAt,
        expirationTime,
        notBefore,
        requestId,
        resources,
      },
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function ours(text: string): { fields: Record<string, unknown> } | { error: string } {
  try {
    return { fields: { ...parseSiweMessage(text) } };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const address = new Wallet('0x' + '11'.repeat(32)).address;

/** Valid messages covering each optional part of EIP-4361 (built by `siwe`, so they are in its canonical form). */
function buildMessages(): string[] {
  const variants = [
    {},
    { scheme: 'https', domain: 'forge.example:8443' },
    { domain: '127.0.0.1', statement: '' },
    { domain: 'a-b.example', statement: "I accept the ToS: https://x.y/tos?a=1&b=[2] (v1), ok! #$'*+,;=@_~" },
    { uri: 'https://forge.example/p/q?x=1&y=/?#frag', chainId: 1 },
    { uri: 'http://localhost:3000', issuedAt: '2024-02-29T23:59:60.123456+05:30' },
    { expirationTime: '2030-01-01T00:00:00Z', notBefore: '2024-01-01T00:00:00.5-01:00' },
    {
      requestId: 'req-1:2@3',
      resources: ['ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/'],
    },
    {
      resources: ['https://example.com/my-web2-claim.json', 'http://a.b:80/c?d#e'],
      notBefore: '2024-01-01T00:00:00Z',
    },
    { statement: undefined, nonce: 'ABCdef0123456789', chainId: 8453 },
  ];
  return variants.map((overrides) =>
    new SiweMessage({
      domain: 'localhost',
      address,
      statement: 'Sign in to Forge Platform.',
      uri: 'https://localhost/login',
      version: '1',
      chainId: 8453,
      nonce: 'a1b2c3d4e5f6a7b8',
      issuedAt: '2025-06-01T12:00:00.000Z',
      ...overrides,
    }).prepareMessage(),
  );
}

/** Hand-picked texts at the edges of the common form: most must go to the ABNF parser. */
function edgeCases(valid: string): string[] {
  const lines = valid.split('\n');
  const swap = (index: number, line: string) => lines.map((l, i) => (i === index ? line : l)).join('\n');
  return [
    valid + '\n',
    valid.replace('localhost wants', 'user@localhost wants'),
    valid.replace('localhost wants', '[::1]:3000 wants'),
    valid.replace('localhost wants', 'localhost: wants'),
    valid.replace('localhost wants', 'https://localhost wants'),
    valid.replace('https://localhost/login', 'https://localhost/l%20gin'),
    valid.replace('https://localhost/login', 'https://user:pw@localhost/login'),
    valid.replace('https://localhost/login', 'https://localhost:' + '9'.repeat(400) + '/login'),
    valid.replace('https://localhost/login', 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66'),
    valid.replace('2025-06-01T12:00:00.000Z', '2025-06-01t12:00:00.000z'),
    valid.replace('2025-06-01T12:00:00.000Z', '2025-02-30T12:00:00.000Z'),
    valid.replace('2025-06-01T12:00:00.000Z', '2025-06-01T24:00:00.000Z'),
    valid.replace(address, address.toLowerCase()),
    valid.replace(address, address.replace('0x', '0X')),
    valid.replace('Chain ID: 8453', 'Chain ID: ' + '9'.repeat(400)),
    valid.replace('Chain ID: 8453', 'Chain ID: 0008453'),
    valid.replace('Sign in to Forge Platform.', 'Sign in to Forgé "Platform"'),
    swap(3, ''),
    `${valid}\nRequest ID: `,
    `${valid}\nRequest ID: %41b`,
    `${valid}\nResources:`,
    `${valid}\nResources:\n- `,
    `${valid}\nNot Before: 2025-06-01T12:00:00Z\nExpiration Time: 2026-06-01T12:00:00Z`,
  ];
}

const MUTATION_CHARS = [
  '\n',
  ' ',
  ':',
  '/',
  '@',
  '%',
  '[',
  ']',
  'x',
  'T',
  't',
  'Z',
  '0',
  '9',
  'é',
  '"',
  '.',
  '-',
  '?',
  '#',
  'A',
  'a',
];

function mutate(text: string, next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const at = Math.floor(next() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(next() * lines.length);
  switch (Math.floor(next() * 6)) {
    case 0:
      return text.slice(0, at) + pick(MUTATION_CHARS) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + pick(MUTATION_CHARS) + text.slice(at + 1);
    case 3:
      return [...lines.slice(0, line), lines[line], ...lines.slice(line)].join('\n');
    case 4:
      return lines.filter((_, i) => i !== line).join('\n');
    default:
      return lines.map((l, i) => (i === line ? l.toLowerCase() : l)).join('\n');
  }
}

describe('SIWE message parsing', () => {
  const valid = buildMessages();

  it('reads every part of valid messages exactly as siwe does, without its ABNF parser', () => {
    for (const text of valid) {
      expect(parseCommonForm(text)).toBeDefined();
      expect(ours(text)).toEqual(reference(text));
    }
  });

  it('gives the same fields or the same error as siwe for edge cases and thousands of mutated messages', () => {
    const next = seededRandom(4361);
    const texts = [...edgeCases(valid[0] as string)];
    for (let i = 0; i < 3000; i++) {
      let text = valid[i % valid.length] as string;
      const mutations = 1 + Math.floor(next() * 2);
      for (let m = 0; m < mutations; m++) text = mutate(text, next);
      texts.push(text);
    }
    let fastAccepted = 0;
    for (const text of texts) {
      const expected = reference(text);
      const fast = parseCommonForm(text);
      if (fast) {
        fastAccepted += 1;
        // The fast path may only accept what siwe accepts, with the same fields.
        expect({ text, result: { fields: { ...fast } } }).toEqual({ text, result: expected });
      }
      expect({ text, result: ours(text) }).toEqual({ text, result: expected });
    }
    // Mutations that keep a message valid (e.g. another nonce character) still take the fast path.
    expect(fastAccepted).toBeGreaterThan(100);
  });
});
