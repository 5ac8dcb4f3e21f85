export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  // Most suites wait on spawned actions, servers, Varnish and timers rather than on the CPU, so more
  // workers than cores (jest's default is cores − 1: one on a 2-core runner) finish far sooner.
  maxWorkers: 4,
  globalSetup: '<rootDir>/__tests__/support/build-dist.mjs',
  setupFilesAfterEnv: ['<rootDir>/__tests__/support/remove-run-dirs.ts'],
  testTimeout: 30000,
  // With the project, not in the system's temporary directory, which a test run leaves as it found it.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest'
}
