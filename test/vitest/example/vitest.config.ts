// The vitest configuration of a project that tests against a saltnet testnet: the global setup
// starts one testnet for the whole run (options from saltnet.config.* and SALTNET_* variables)
// and stops it at the end; test files reach it with inject('saltnet').
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The default exclude keeps node_modules out.
    include: ['**/*.spec.ts'],
    // By package name: vitest resolves them from this project's node_modules.
    globalSetup: ['saltnet/vitest/global-setup'],
    // Test and hook timeouts that fit the testnet: a minute on the simulator, minutes on real Salvium at
    // difficulty 500 (funding a wallet waits for blocks). The run's `saltnet: testing on …` line says them.
    setupFiles: ['saltnet/vitest/setup'],
  },
});
