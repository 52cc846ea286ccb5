// Simulator-only knobs, read from the environment so that every command-line flag stays
// exactly as the real programs accept it. Documented in harness/sim/README.md.
export interface SimConfig {
  /**
   * `fast`: blocks as fast as the process can make them (the default: a newcomer's first chain in
   * about a second); `paced`: a block takes difficulty / (hash rate × threads) seconds.
   */
  pace: 'fast' | 'paced';
  /** Simulated hashes per second per mining thread (the `paced` pace; also what mining_status reports). */
  hashRatePerThread: number;
  /** Exponentially distributed block times (as real mining) instead of a steady pace. */
  jitter: boolean;
  /** Floor on the time between two simulated blocks. */
  minBlockMs: number;
  /** After the miner stops itself at HF10, `/start_mining` answers `Failed, mining not started` for this long. */
  restartDelayMs: number;
  /** Whether a wallet sees the token supply minted to it by its own create_token (not established on real Salvium). */
  tokenMintVisible: boolean;
  /** Delay of the offline banner after `Starting p2p net loop...` (real: about 1 s). */
  bannerDelayMs: number;
  /** How long an idle daemon waits before it loads its chain behind its start (daemon/loading.ts). */
  chainLoadDelayMs: number;
  /**
   * TEST ONLY: appended to the message of every JSON-RPC error the daemon and wallet RPC answer (a simulator that
   * answers differently, for `saltnet diff`'s tests).
   */
  testErrorSuffix: string;
  /**
   * TEST ONLY: how long after a send a wallet waits before a refresh that finds the tx neither in a block nor in the
   * pool marks it failed, so that a test need not wait wallet2's tx_propagation_timeout (undefined: that, 500 s).
   */
  txPropagationTimeoutS: number | undefined;
}

/** Real v1.1.3c light-mode hash rate per thread (392 H/s measured on two threads). */
export const REALISTIC_HASHRATE = 196;

function num(name: string, dflt: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}=${raw} is not a non-negative number`);
  return n;
}

/** `SALTNET_SIM_PACE` (fast, steady, realistic), or a hash rate given on its own (paced at that rate). */
function paceOf(rate: string | undefined): { pace: SimConfig['pace']; realistic: boolean } {
  const given = process.env.SALTNET_SIM_PACE ?? '';
  if (!['', 'fast', 'steady', 'realistic'].includes(given))
    throw new Error(`SALTNET_SIM_PACE=${given} is not one of fast, steady, realistic`);
  const realistic = given === 'realistic' || (given === '' && rate === 'realistic');
  if (realistic || given === 'steady' || (given === '' && rate !== undefined && rate !== ''))
    return { pace: 'paced', realistic };
  return { pace: 'fast', realistic: false };
}

export function loadSimConfig(): SimConfig {
  const rate = process.env.SALTNET_SIM_HASHRATE;
  const { pace, realistic } = paceOf(rate);
  return {
    pace,
    hashRatePerThread: realistic ? REALISTIC_HASHRATE : num('SALTNET_SIM_HASHRATE', 50_000),
    jitter: realistic || process.env.SALTNET_SIM_JITTER === '1',
    // At the fast pace: a block every 100 ms while no client asks where the chain stands, real Salvium's pace at
    // difficulty 1 (5-10 blocks a second); the paced paces' floor on block times.
    minBlockMs: num('SALTNET_SIM_MIN_BLOCK_MS', pace === 'fast' ? 100 : 2),
    restartDelayMs: num('SALTNET_SIM_RESTART_DELAY_MS', 150),
    tokenMintVisible: process.env.SALTNET_SIM_TOKEN_MINT_VISIBLE !== '0',
    bannerDelayMs: num('SALTNET_SIM_BANNER_DELAY_MS', 1000),
    chainLoadDelayMs: num('SALTNET_SIM_CHAIN_LOAD_DELAY_MS', 1000),
    testErrorSuffix: process.env.SALTNET_SIM_TEST_ERROR_SUFFIX ?? '',
    txPropagationTimeoutS: process.env.SALTNET_SIM_TEST_TX_PROPAGATION_S
      ? num('SALTNET_SIM_TEST_TX_PROPAGATION_S', 0)
      : undefined,
  };
}
