// saltnet's library entry point.
export {
  startTestnet,
  addressAt,
  type Testnet,
  type TestnetOptions,
  type WalletHandle,
  type SnapshotInfo,
} from './testnet/testnet.js';
export { chainKey, CHEAP_DIFFICULTY, type ChainSpec, type PrefixMode } from './testnet/chain/chain-cache.js';
/** Import a chain state archive: every file checked, the key computed again, the height read from the chain. */
export { importSnapshot } from './testnet/chain/chain-check.js';
export type { MiningInfo, MiningOptions, MiningProgress } from './testnet/types.js';
export { describeAutomine, type AutomineMode, type AutomineChange } from './testnet/mining/automine.js';
export { FaucetError, type FundRequest, type FundResult } from './testnet/mining/faucet.js';
export { runLoad, LoadOptionsError } from './load/run.js';
export {
  LoadSetupError,
  MIX_KINDS,
  type LoadOptions,
  type LoadReport,
  type MixKind,
  type Percentiles,
} from './load/types.js';
export { PortsTakenError, type PortHolder } from './process/port-holder.js';
export { fixtureWallet, FIXTURE_WALLETS_DIR, type FixtureWallet } from './testnet/programs/fixture-wallets.js';
export {
  cacheDir,
  listSnapshots,
  removeSnapshot,
  clearSnapshots,
  exportSnapshot,
  type Manifest,
  type SnapshotSummary,
} from './snapshot/index.js';
export {
  BACKENDS,
  FULL_RANDOMX_FROM,
  type BackendName,
  type BackendSpec,
  type RandomxChoice,
  type RandomxMode,
} from './coin/backends.js';
export { resolveBackend, MissingBinaryError, type ResolvedBackend } from './testnet/programs/binaries.js';
export { createDaemonClient, type DaemonClient } from './rpc/daemon.js';
export { createWalletClient, type WalletClient } from './rpc/wallet.js';
export { RpcError, HttpStatusError, ConnectionError } from './rpc/errors.js';
export type { ConnectionProblem, EndpointOptions, Recovery } from './rpc/http.js';
export { SIM_BIN_DIR, SIM_VERSION_LINE } from './sim/index.js';
export { runFiles } from './runner/run-scenarios.js';
export type { RunnerOptions } from './runner/options.js';
export { runScenario, runScenarios, type RunScenarioOptions } from './runner/api.js';
export { EXAMPLE_SCENARIOS_DIR } from './scenario/examples.js';
export { parseScenario, loadScenario } from './scenario/parse.js';
export type { Scenario } from './scenario/model.js';
export {
  ScenarioError,
  isUnsuccessful,
  type ScenarioResult,
  type ScenarioStatus,
  type StepResult,
} from './scenario/types.js';
export { defineConfig, resolveConfig, ConfigError, type SaltnetConfig, type ResolvedConfig } from './config/index.js';
export { installSalvium, type InstallOptions, type InstallResult } from './install/install.js';
export {
  diffScenarios,
  diffAgainstRecording,
  compareRuns,
  type DiffOptions,
  type DiffHooks,
  type AgainstOptions,
} from './diff/diff.js';
export {
  readRecording,
  writeRecording,
  newestRecording,
  programInfo,
  RecordingError,
  type Recording,
  type RecordingManifest,
} from './diff/recording.js';
export { checkScenarios, type ScenarioCheck } from './diff/recording-check.js';
export {
  recordSession,
  type RecordSession,
  type RecordSessionOptions,
  type RecordWalletOption,
} from './record/session.js';
export { recordingToScenario, type ToScenarioOptions } from './record/write.js';
export type { SessionRecording, RecordedEvent, RecordedCall, RecordedWallet } from './record/types.js';
export { loadAcceptFile, parseAcceptFile, AcceptFileError, DEFAULT_ACCEPT_FILE } from './diff/accept.js';
export { DIFF_RULES, type DiffRule } from './diff/rules.js';
export { diffToText, diffToJson, diffToJUnit } from './diff/report.js';
export type { DiffResult, DiffSide, Divergence, ScenarioDiff, AcceptEntry, DiffSummary } from './diff/types.js';
