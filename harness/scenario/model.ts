// A scenario as parsed: what the parser gives the runner. Its steps' actions are the step kinds'
// (steps/registry.ts); the shapes the step kinds share with it are types.ts.
//
// A scenario file (YAML):
//
//   name: token listed one block after creation
//   tags: [tokens]
//   backends: [sim, salvium]            # optional; default: every backend that has tokens when a step needs them
//   requires:
//     height: 1201
//     unlocked: { SAL1: 1100 SAL1 }      # amounts: atomic integers or "1.5 SAL1"
//   wallets:                             # extra named wallets besides `main`
//     bob: {}                            # or { unlocked: { SAL1: 10 SAL1 } } funded from main
//   steps:
//     - create_token: { ticker: abcd, supply: 1000, name: Demo }
//       save: { tx: result.tx_hash_list[0] }
//     - get_tokens: {}
//       expect: { result.tokens: { not_contains: salABCD } }
//     - mine: 1
//     - get_tokens: { regex: ABCD }
//       expect: { result.tokens: [salABCD] }
//     - transfer: { to: "${bob.address}", amount: 1.5 SAL1 }
//       wallet: main
//     - call: { method: get_info, on: daemon }
//     - call: { path: /get_height, on: daemon }
//     - wait: { call: { method: get_balance, params: { asset_type: SAL1 } }, wallet: bob, until: {
// "result.balances[0].unlocked_balance": { gte: 1.5 SAL1 } }, blocks: 12, mine: true }
//     - metadata: { name: rich, fields: { name: Rich, description: "..." } }   # or file: fixtures/metadata/rich.json
//     - restart: wallet                  # or daemon
//
// Every step has exactly one action key plus optional common keys:
//   name, wallet (which wallet runs it; default main), expect, expect_error, save.

import type { BackendName } from '../coin/backends.js';
import type { Action } from './steps/registry.js';
import type { StepCommon } from './types.js';

/** An amount as written: atomic units, kept exact. */
export type Amount = bigint;

/** The parsed action of a step, and the readable wallet forms: derived from the step kinds (steps/registry.ts). */
export type { Action, ActionKey, WalletMethod } from './steps/registry.js';

/** A step: its one action, and what every step has besides. */
export interface Step extends StepCommon {
  action: Action;
}

export interface Requirements {
  height?: number;
  /** asset → atomic amount the main wallet must hold unlocked before the steps. */
  unlocked?: Record<string, Amount>;
  /** Tokens the main wallet created before the steps, each supply whole and unlocked (held-tokens.ts). */
  tokens?: HeldToken[];
}

/** A token a wallet created before the steps: `tokens: {ABCD: {supply: 100, name: demo}}`. */
export interface HeldToken {
  /** Upper case, as the wallet makes it; the asset is `sal` + ticker. */
  ticker: string;
  /** Whole tokens. */
  supply: number;
  name?: string;
}

export interface WalletDecl {
  name: string;
  /** The node its wallet RPC talks to (default n0). */
  node?: string;
  /** Funded from `main` before the steps (asset → atomic amount, unlocked). */
  unlocked?: Record<string, Amount>;
  /** Tokens it created before the steps (funded on top of `unlocked`). */
  tokens?: HeldToken[];
}

export interface Scenario {
  file: string;
  /** The file it was read from, when that is a copy of `file` (saltnet repro's). */
  readFrom?: string;
  name: string;
  description?: string;
  tags: string[];
  /** Backends it is written for; undefined: any. */
  backends?: BackendName[];
  requires: Requirements;
  /** Daemons of its testnet (default 1): n0, n1, … joined by links (partition, heal). */
  nodes: number;
  wallets: WalletDecl[];
  steps: Step[];
  /**
   * `artifacts: { keep_secrets: true }`: the wallet secrets its exchanges carry (query_key answers, seeds and keys
   * sent) stay in its artifacts and reports; by default they are redacted (redaction.ts).
   */
  keepSecrets?: boolean;
}
