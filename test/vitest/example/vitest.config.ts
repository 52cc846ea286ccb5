// The vitest configuration of a project that tests against a saltnet testnet: the global setup
// starts one testnet for the whole run (options from saltnet.config.* and SALTNET_* variables)
// and stops it at the end; test files reach it with inject('saltnet').
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The default exclude keeps node_modules out.
    include: ['**/*.spec.ts'],
    // By package name: vitest resolves it from this project's node_modules.
    globalSetup: ['saltnet/vitest/global-setup'],
    // Funding a wallet waits for blocks: a few seconds on the simulator, longer on real Salvium.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
