import { lineRedactor, redactUrls, secretsOf } from '../../../platform/redaction';

describe('URL redaction', () => {
  it.each([
    ['https://eth-mainnet.g.alchemy.com/v2/abcDEF123456', 'https://eth-mainnet.g.alchemy.com/[redacted]'],
    ['https://mainnet.infura.io/v3/0123456789abcdef', 'https://mainnet.infura.io/[redacted]'],
    [
      'mongodb+srv://forge:hunter2@cluster0.example.net/forge',
      'mongodb+srv://[redacted]@cluster0.example.net/[redacted]',
    ],
    ['mongodb://u:p@h1:27017,h2:27017/db?replicaSet=rs', 'mongodb://[redacted]@h1:27017,h2:27017/[redacted]'],
    ['redis://:s3cret@127.0.0.1:6379', 'redis://[redacted]@127.0.0.1:6379'],
    ['http://[::1]:8545/?key=abc', 'http://[::1]:8545/[redacted]'],
    ['http://127.0.0.1:6333/', 'http://127.0.0.1:6333/'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrls(url)).toBe(expected);
  });

  it('redacts URLs inside text and JSON-escaped strings, and leaves other text alone', () => {
    expect(redactUrls('request failed (requestUrl="https://rpc.example/v2/KEY123", code=SERVER_ERROR)')).toBe(
      'request failed (requestUrl="https://rpc.example/[redacted]", code=SERVER_ERROR)',
    );
    expect(redactUrls('{"msg":"at \\"wss://node.example/ws/KEY\\""}')).toBe(
      '{"msg":"at \\"wss://node.example/[redacted]\\""}',
    );
    expect(redactUrls('connect ECONNREFUSED 127.0.0.1:9')).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });

  it('finds the credentials of a configuration and removes them from any line', () => {
    const secrets = secretsOf({
      ETH_RPC_URL: 'https://eth-mainnet.g.alchemy.com/v2/Abc123Def456Ghi789',
      REDIS_URL: 'redis://default:pa55word@redis:6379',
      BRAIN_SERVICE_TOKEN: 'service-token-0123456789',
      QDRANT_URL: 'http://qdrant:6333/',
      LOG_LEVEL: 'info',
    });
    expect(secrets.sort()).toEqual(['Abc123Def456Ghi789', 'pa55word', 'service-token-0123456789'].sort());
    const redact = lineRedactor(secrets);
    expect(
      redact('{"msg":"provider said: invalid key Abc123Def456Ghi789","t":"service-token-0123456789"}'),
    ).toBe('{"msg":"provider said: invalid key [redacted]","t":"[redacted]"}');
  });
});
