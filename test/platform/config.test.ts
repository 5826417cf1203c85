import { ConfigError, loadConfig, withRoleArguments } from '../../platform/config';

describe('loadConfig', () => {
  it('applies the spec defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      ROLES: ['api', 'game', 'worker'],
      SIWE_ENABLED: true,
      SIWE_DOMAIN: 'localhost:3000',
      SIWE_ALLOWED_ORIGINS: ['https://*.localhost'],
      SIWE_SESSION_TTL_SECONDS: 3600,
      SIWE_NONCE_TTL_SECONDS: 300,
      SIWE_REPLAY_CAP: 5,
      BRAIN_BREAKER_FAILURE_THRESHOLD: 5,
      BRAIN_BREAKER_RECOVERY_SECONDS: 60,
      BRAIN_BREAKER_HALF_OPEN_CALLS: 3,
      BRAIN_EMBED_RETRY_ATTEMPTS: 3,
      BRAIN_EMBED_RETRY_BASE_MS: 500,
      BRAIN_WORKING_MEMORY_MAX_TOKENS: 128_000,
      BRAIN_EPISODIC_RETENTION_DAYS: 7,
      BRAIN_ARCHIVAL_AGE_DAYS: 90,
      BRAIN_CONSOLIDATION_AT: '03:30',
      BRAIN_CONSOLIDATION_TIMEZONE: 'UTC',
      GATEWAY_RATE_LIMIT_PER_SECOND: 50,
      SIGNER_RATE_LIMIT_PER_MINUTE: 10,
      SIGNER_NONCE_CACHE_MS: 4000,
      ECONOMY_SOFT_DECAY_MONTHLY_PERCENT: 1,
      ECONOMY_CREATOR_FEE_PERCENT: 5,
    });
    expect(config.MONGODB_URI).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('turns wallet sign-in on for a loopback domain in development only', () => {
    expect(loadConfig({ PORT: '3015' })).toMatchObject({ SIWE_ENABLED: true, SIWE_DOMAIN: 'localhost:3015' });
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({
      SIWE_ENABLED: false,
      SIWE_DOMAIN: 'localhost',
    });
    expect(loadConfig({ NODE_ENV: 'test' }).SIWE_ENABLED).toBe(false);
    expect(loadConfig({ BASE_DOMAIN: 'forge.example' }).SIWE_ENABLED).toBe(false);
    expect(loadConfig({ SIWE_ENABLED: '0' }).SIWE_ENABLED).toBe(false);
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }).SIWE_DOMAIN).toBe('127.0.0.1:8080');
  });

  it('derives SIWE domain and origins from BASE_DOMAIN and splits origin lists', () => {
    expect(loadConfig({ BASE_DOMAIN: 'forge.example' })).toMatchObject({
      SIWE_DOMAIN: 'forge.example',
      SIWE_ALLOWED_ORIGINS: ['https://*.forge.example'],
    });
    expect(
      loadConfig({ SIWE_ALLOWED_ORIGINS: 'https://a.example, https://*.b.example' }).SIWE_ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'https://*.b.example']);
  });

  it('parses flags, numbers and role lists', () => {
    const config = loadConfig({ SIWE_ENABLED: '1', PORT: '8080', ROLES: 'api, worker,api' });
    expect(config.SIWE_ENABLED).toBe(true);
    expect(config.PORT).toBe(8080);
    expect(config.ROLES).toEqual(['api', 'worker']);
    expect(loadConfig({ SIWE_ENABLED: 'false' }).SIWE_ENABLED).toBe(false);
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '', REDIS_URL: '' });
    expect(config.PORT).toBe(3000);
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('names every bad variable and what was expected', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'abc', SIWE_ENABLED: 'yes', ROLES: 'api,web', MONGODB_URI: 'http://db' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toBe(
      [
        'Invalid configuration:',
        '  PORT: expected an integer (got "abc")',
        '  MONGODB_URI: expected a URL (mongodb, mongodb+srv) (got "http://db")',
        '  ROLES: expected a comma-separated list of api, game, worker (got "api,web")',
        '  SIWE_ENABLED: expected 0, 1, true or false (got "yes")',
      ].join('\n'),
    );
  });

  it('stops on a retired variable and names what replaced it, instead of ignoring it', () => {
    expect(() => loadConfig({ BRAIN_ASK_EVIDENCE_THRESHOLD: '0.3' })).toThrow(
      'BRAIN_ASK_EVIDENCE_THRESHOLD: retired: use BRAIN_ASK_CONFIDENCE_THRESHOLD',
    );
    expect(loadConfig({ BRAIN_ASK_EVIDENCE_THRESHOLD: '' }).BRAIN_ASK_CONFIDENCE_THRESHOLD).toBe(0.5);
  });

  it('takes a game process public address as host[:port][/path], without a scheme', () => {
    expect(loadConfig({ GAME_PUBLIC_ADDRESS: 'game-2.example.com' }).GAME_PUBLIC_ADDRESS).toBe(
      'game-2.example.com',
    );
    expect(loadConfig({ GAME_PUBLIC_ADDRESS: '10.0.0.7:2567/g2' }).GAME_PUBLIC_ADDRESS).toBe(
      '10.0.0.7:2567/g2',
    );
    expect(() => loadConfig({ GAME_PUBLIC_ADDRESS: 'wss://game.example.com' })).toThrow(
      'GAME_PUBLIC_ADDRESS: expected host[:port][/path] without a scheme',
    );
    expect(loadConfig({}).GAME_HOSTS_ROOMS).toEqual([]);
    expect(loadConfig({ GAME_HOSTS_ROOMS: ' area_caves, area_marsh ' }).GAME_HOSTS_ROOMS).toEqual([
      'area_caves',
      'area_marsh',
    ]);
    expect(() => loadConfig({ GAME_HOSTS_ROOMS: 'area caves' })).toThrow(
      'GAME_HOSTS_ROOMS: expected comma-separated room type names',
    );
  });

  it('rejects out-of-range numbers with the bound', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT: expected an integer <= 65535 (got "70000")');
    expect(() => loadConfig({ SIGNER_NONCE_CACHE_MS: '5000' })).toThrow(
      'SIGNER_NONCE_CACHE_MS: expected an integer <= 4999 (got "5000")',
    );
    expect(() => loadConfig({ BRAIN_FUSED_SEMANTIC_WEIGHT: '0' })).toThrow('BRAIN_FUSED_SEMANTIC_WEIGHT:');
    expect(() => loadConfig({ BRAIN_FUSED_SEMANTIC_WEIGHT: 'heavy' })).toThrow(
      'BRAIN_FUSED_SEMANTIC_WEIGHT: expected a number',
    );
    expect(loadConfig({ BRAIN_FUSED_SEMANTIC_WEIGHT: '0.5' }).BRAIN_FUSED_SEMANTIC_WEIGHT).toBe(0.5);
    expect(loadConfig({}).BRAIN_SECTION_CITATIONS && loadConfig({}).BRAIN_ANSWER_TYPES).toBe(true);
    const off = loadConfig({ BRAIN_SECTION_CITATIONS: '0', BRAIN_ANSWER_TYPES: 'false' });
    expect([off.BRAIN_SECTION_CITATIONS, off.BRAIN_ANSWER_TYPES]).toEqual([false, false]);
  });

  it('never echoes a secret value', () => {
    expect(() => loadConfig({ BRAIN_SERVICE_TOKEN: 'short-secret' })).toThrow(
      /^Invalid configuration:\n {2}BRAIN_SERVICE_TOKEN: expected a secret of at least 16 characters$/,
    );
  });
});

describe('withRoleArguments', () => {
  const base = loadConfig({});

  it('lets --role override ROLES, repeated or comma-separated', () => {
    expect(withRoleArguments(base, ['--role', 'api']).ROLES).toEqual(['api']);
    expect(withRoleArguments(base, ['--role=game,worker']).ROLES).toEqual(['game', 'worker']);
    expect(withRoleArguments(base, ['--role', 'game', '--role', 'api']).ROLES).toEqual(['game', 'api']);
  });

  it('keeps ROLES when no --role is given', () => {
    expect(withRoleArguments(base, []).ROLES).toEqual(['api', 'game', 'worker']);
  });

  it('rejects unknown roles naming the flag', () => {
    expect(() => withRoleArguments(base, ['--role', 'web'])).toThrow(
      '--role: expected a comma-separated list of api, game, worker (got "web")',
    );
  });
});
