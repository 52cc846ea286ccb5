// The config file's public API (see README.md).
export { defineConfig } from './define.js';
export { ConfigError, formatProblem, type ConfigProblem } from './errors.js';
export { CONFIG_FILE_NAMES, findConfigFile, searchConfigFile, type FoundConfig } from './find.js';
export { loadConfigFile, nodeStripsTypes, type LoadedConfig } from './load.js';
export { formatSource, resolveConfig, type ResolveOptions, type ResolvedConfig, type Source } from './resolve.js';
export { KEYS, type ConfigKey, type ConfigValues, type KeySpec, type SaltnetConfig } from './schema.js';
export { unlockedAtomic } from './unlocked.js';
export { CONFIG_FLAGS, CONFIG_OPTION, givenFlags } from './yargs.js';
