// saltnet's library entry point.
export { startTestnet, addressAt, type Testnet, type TestnetOptions, type WalletHandle, type SnapshotInfo } from './testnet/testnet.js';
export { chainKey, type ChainSpec } from './testnet/chain-cache.js';
export { fixtureWallet, FIXTURE_WALLETS_DIR, type FixtureWallet } from './testnet/fixture-wallets.js';
export { cacheDir, listSnapshots, removeSnapshot, clearSnapshots, exportSnapshot, importSnapshot, type Manifest, type SnapshotSummary } from './snapshot/index.js';
export { BACKENDS, type BackendName, type BackendSpec } from './testnet/backends.js';
export { resolveBackend, MissingBinaryError, type ResolvedBackend } from './testnet/binaries.js';
export { createDaemonClient, type DaemonClient } from './rpc/daemon.js';
export { createWalletClient, type WalletClient } from './rpc/wallet.js';
export { RpcError, HttpStatusError, ConnectionError } from './rpc/errors.js';
export { SIM_BIN_DIR } from './sim/launch.js';
export { VERSION_LINE as SIM_VERSION_LINE } from './sim/common/version.js';
export { runFiles, type RunnerOptions } from './scenario/runner.js';
export { runScenario, runScenarios, type RunScenarioOptions } from './scenario/api.js';
export { parseScenario, loadScenario } from './scenario/parse.js';
export { ScenarioError, isUnsuccessful, type Scenario, type ScenarioResult, type ScenarioStatus, type StepResult } from './scenario/types.js';
export { defineConfig, resolveConfig, ConfigError, type SaltnetConfig, type ResolvedConfig } from './config/index.js';
export { installSalvium, type InstallOptions, type InstallResult } from './install/install.js';
