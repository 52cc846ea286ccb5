// `export default defineConfig({ … })` in saltnet.config.mjs / .ts: an identity function whose only
// job is to give editors (and tsc) the config's type, so typos show up before saltnet runs.
import type { SaltnetConfig } from './schema.js';

export function defineConfig(config: SaltnetConfig): SaltnetConfig {
  return config;
}
