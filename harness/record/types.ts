// What a recording session hands to the scenario writer: the chain and wallets it started from and,
// in order, every request that crossed a proxy and every run of blocks mined between requests.
import type { BackendSpec } from '../coin/backends.js';
import type { MiningAddresses } from '../testnet/mining/mining.js';

export interface RecordedWallet {
  /** The scenario's name for it: `main` or a name given with `--wallet`. */
  name: string;
  addresses: MiningAddresses;
  /** What the session funded it with (asset → atomic units); empty for an unfunded wallet. */
  funded: Record<string, bigint>;
  /**
   * `fresh`: created for the session, so a replay's wallet starts exactly as it did (its balances
   * and transfers are checked exactly); `unknown`: a wallet of a running testnet (`--run`), whose
   * history a replay cannot have.
   */
  history: 'fresh' | 'unknown';
}

/** One request as the scenario writer sees it. */
export interface RecordedCall {
  kind: 'call';
  /** `daemon`, or the wallet's name. */
  on: 'daemon' | 'wallet';
  wallet?: string;
  /** A JSON-RPC method (through /json_rpc), or a daemon URI endpoint (`/get_info`). */
  method?: string;
  path?: string;
  params: unknown;
  /** `{result}` or `{error: {code, message}}`; a URI endpoint's HTTP error gives `{error: {code: status}}`. */
  answer: { result?: unknown; error?: { code: number; message: string } };
  ms: number;
}

/** A request that cannot be a step (a binary endpoint, a batch, a body that is not JSON): kept as a comment. */
export interface SkippedCall {
  kind: 'skipped';
  why: string;
}

export interface MinedBlocks {
  kind: 'mine';
  /** The blocks the app waited for (mining.ts): what a replay mines. */
  blocks: number;
  /** Blocks the daemon mined past them before the app stopped mining: not replayed. */
  overshoot?: number;
  /** The overshoot was popped before the app went on, as a replay never mines it. */
  popped?: boolean;
}

export type RecordedEvent = RecordedCall | SkippedCall | MinedBlocks;

export interface SessionRecording {
  /** ISO time the session started. */
  startedAt: string;
  spec: BackendSpec;
  /** Where the programs came from (a folder, or the simulator), when the session started them. */
  version?: string;
  /** The chain's height when the session began (before the session's wallets were funded). */
  height: number;
  wallets: RecordedWallet[];
  events: RecordedEvent[];
  /**
   * Folders of the recording machine that its answers may name (the testnet's workdir, the temporary folder, the home
   * folder): a replay elsewhere has others, so they are matched by a pattern, never written literally.
   */
  localPaths?: string[];
}
