// The three backends behind one interface: what differs between real Salvium, the simulator and
// Debian's Monero is data, not code paths.
export type BackendName = 'salvium' | 'sim' | 'monero';

export interface BackendSpec {
  name: BackendName;
  /** Executable names inside a bin dir. */
  binaries: { daemon: string; walletCli: string; walletRpc: string };
  /** Default `--fixed-difficulty`. */
  difficulty: number;
  /** Height (block count) from which mining needs the Carrot address; undefined: one address only. */
  carrotHeight?: number;
  /** Block count at which tokens are active (next block HF ≥ 11); undefined: no tokens. */
  tokenHeight?: number;
  /** Asset a funded wallet must hold, with the amount (atomic units) that makes it "funded". */
  fundAsset?: string;
  /** Default target height of `up`. */
  defaultHeight: number;
  /** Unlocked amount `up` waits for by default (atomic units): enough for a token plus fees on Salvium. */
  defaultUnlocked: bigint;
  /** Extra environment for the daemon (light RandomX: ~256 MiB instead of 2 GiB per miner). */
  daemonEnv: Record<string, string>;
  /** Log lines that mean "RPC is up". The public guide's `SYNCHRONIZED OK` is never printed by Salvium, so it is only one pattern among others. */
  daemonReadyLines: RegExp[];
}

const COIN = 100_000_000n;

/** Real Salvium; the simulator is the same chain without RandomX (so no RandomX environment). */
const SALVIUM: BackendSpec = {
  name: 'salvium',
  binaries: { daemon: 'salviumd', walletCli: 'salvium-wallet-cli', walletRpc: 'salvium-wallet-rpc' },
  difficulty: 500,
  carrotHeight: 1100,
  tokenHeight: 1200,
  fundAsset: 'SAL1',
  defaultHeight: 1201,
  defaultUnlocked: 1001n * COIN,
  daemonEnv: { MONERO_RANDOMX_UMASK: '4' },
  daemonReadyLines: [/core RPC server started ok/, /The daemon is running offline/, /SYNCHRONIZED OK/],
};

export const BACKENDS: Record<BackendName, BackendSpec> = {
  salvium: SALVIUM,
  sim: { ...SALVIUM, name: 'sim', daemonEnv: {} },
  monero: {
    name: 'monero',
    binaries: { daemon: 'monerod', walletCli: 'monero-wallet-cli', walletRpc: 'monero-wallet-rpc' },
    difficulty: 1,
    defaultHeight: 70,
    // 1 XMR (12 decimals): coinbase unlocks 60 blocks after it was mined
    defaultUnlocked: 1_000_000_000_000n,
    daemonEnv: { MONERO_RANDOMX_UMASK: '4' },
    daemonReadyLines: [/core RPC server started ok/, /The daemon is running offline/, /SYNCHRONIZED OK/],
  },
};
