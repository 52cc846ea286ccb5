// Upper bounds on what a user can ask saltnet for, in one place: the command line, config files,
// environment variables and scenario files refuse values above them with the same numbers.
// Each bound is far above any real use and far below what would hang or exhaust the machine.

/**
 * The highest chain height saltnet mines to (`--height`, `mine --to`, `requires.height`); also the most blocks one
 * `mine` makes.
 */
export const MAX_HEIGHT = 100_000;

/** The highest fixed mining difficulty: at a CPU miner's ~200 hashes/s a block already takes about 1.5 hours. */
export const MAX_DIFFICULTY = 1_000_000;

/** The most mining threads (`--threads`); the daemon also refuses more threads than the machine's cores allow. */
export const MAX_THREADS = 256;

/** The largest `--timeout-factor`: a factor of 100 already turns a 60 s deadline into 100 minutes. */
export const MAX_TIMEOUT_FACTOR = 100;

/**
 * The smallest `--timeout-factor`: 0.1 already turns a 60 s deadline into 6 s; a factor near 0 (1e-10, 0.0000001)
 * would make every wait fail at once, reported as the programs' failures.
 */
export const MIN_TIMEOUT_FACTOR = 0.1;

/** The most scenario workers (`--workers`): each runs a testnet of its own. */
export const MAX_WORKERS = 64;

/** The most testnets a pool keeps live (`--pool`): each is a testnet of its own. */
export const MAX_POOL = 16;

/** The longest automine block time (`--block-time`, seconds): a day. */
export const MAX_BLOCK_TIME = 86_400;

/**
 * The most nodes of one testnet (`--nodes`, a scenario's `nodes`): every pair is joined by a link of two proxies, and
 * each real node is a salviumd of its own (~300 MB).
 */
export const MAX_NODES = 8;

/**
 * The most an imported snapshot archive may hold, uncompressed (`saltnet snapshot load`, importArchive): a real
 * Salvium chain state at height 1201 is about 3 MiB, so this leaves room for chains of 100000 blocks and refuses a
 * gzip bomb before it is written. `snapshot load --max-size` raises it.
 */
export const MAX_IMPORT_BYTES = 768 * 2 ** 20;

/** The largest file an imported snapshot archive may hold, uncompressed. */
export const MAX_IMPORT_FILE_BYTES = 512 * 2 ** 20;
