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

/** The most scenario workers (`--workers`): each runs a testnet of its own. */
export const MAX_WORKERS = 64;

/**
 * The most nodes of one testnet (`--nodes`, a scenario's `nodes`): every pair is joined by a link of two proxies, and
 * each real node is a salviumd of its own (~300 MB).
 */
export const MAX_NODES = 8;
