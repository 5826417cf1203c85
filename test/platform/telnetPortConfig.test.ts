import { ConfigError, loadConfig } from '../../platform/config';

describe('TELNET_PORT', () => {
  it('is 4000 on a development machine and off (0) elsewhere unless set', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).TELNET_PORT).toBe(4000);
    expect(loadConfig({ NODE_ENV: 'test' }).TELNET_PORT).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', BRAIN_SERVICE_TOKEN: 'x'.repeat(32) }).TELNET_PORT).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', TELNET_PORT: '4100' }).TELNET_PORT).toBe(4100);
    expect(loadConfig({ NODE_ENV: 'development', TELNET_PORT: '0' }).TELNET_PORT).toBe(0);
  });

  it('refuses a port that is not one', () => {
    expect(() => loadConfig({ TELNET_PORT: '70000' })).toThrow(ConfigError);
    expect(() => loadConfig({ TELNET_PORT: 'telnet' })).toThrow('TELNET_PORT: expected an integer');
  });
});
