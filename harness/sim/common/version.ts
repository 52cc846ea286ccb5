// Version strings the simulated programs print. The real ones embed a 9-character
// git tag; the simulator uses the 9-character tag `simulated` so a reader can tell.
export const VERSION_NUMBER = '1.1.3c';
export const VERSION_TAG = 'simulated';
export const MONERO_BASE = 'Monero 0.18.4.0-release';
/** `1.1.3c-simulated, based on Monero 0.18.4.0-release` (daemon `get_info.version`). */
export const VERSION_FULL = `${VERSION_NUMBER}-${VERSION_TAG}, based on ${MONERO_BASE}`;
/** `Salvium 'One' (v1.1.3c-simulated, based on Monero 0.18.4.0-release)` */
export const VERSION_LINE = `Salvium 'One' (v${VERSION_FULL})`;
/** Core RPC version 3<<16 | 13. */
export const CORE_RPC_VERSION = 196621;
/** Wallet RPC version 1<<16 | 28. */
export const WALLET_RPC_VERSION = 65564;
