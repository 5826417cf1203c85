/** Jest: TypeScript through @swc/jest (type checking is `npm run typecheck`), tests under test/. */
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  // ESM-only packages are transformed to CommonJS for jest's module system.
  transformIgnorePatterns: [
    '/node_modules/(?!(@colyseus|mingo|agenda|@agendajs|cron-parser|luxon|rou3|@seriousme|openid-client|oauth4webapi|jose|oidc-provider|@koa|koa[^/]*|quick-lru|nanoid|stemmer)/)',
  ],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testTimeout: 30000,
  // Every answer received through supertest is checked against the published OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/setup/responseContract.ts'],
  // Agenda 6.2.6 (the newest release) leaves a timer behind every job it runs: JobProcessor's alive check awaits
  // `delay(lockLifetime / 2)` (5 minutes by default) on a referenced timer that stop() cannot clear, so the test
  // process would idle for up to 5 minutes after the last suite. Production is unaffected (main.ts exits after a
  // graceful stop); tests close everything they open, and this only ends the wait for Agenda's leftover timers.
  forceExit: true,
  // Test files run one after another in a worker process that is replaced once it holds more than this after a
  // file: a single in-band process accumulated every file's module registry (WordNet, the world, the SDKs) and ran
  // out of its 4 GB heap two thirds of the way through the suite.
  workerIdleMemoryLimit: '1536MB',
};
