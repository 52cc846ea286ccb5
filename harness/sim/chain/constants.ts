// Consensus constants of Salvium testnet (reference §0, §4, §5, §7).
export const COIN = 100_000_000n;
export const MONEY_SUPPLY = 18_440_000_000_000_000n;
export const PREMINE = 2_210_000_000_000_000n;
export const DIFFICULTY_TARGET = 120;
/** Coinbase and protocol outputs become spendable when chain height >= block height + 60. */
export const MINED_MONEY_UNLOCK_WINDOW = 60;
/** Normal outputs become spendable after 10 blocks. */
export const DEFAULT_TX_SPENDABLE_AGE = 10;
export const TAIL_EMISSION = 60_000_000n;
export const MAX_TX_WEIGHT = 149_400;
export const CARROT_MAX_INPUTS = 64;
export const CARROT_MAX_OUTPUTS = 8;
/** The wallet builds at most 7 destinations per Carrot tx (one slot is kept for change). */
export const CARROT_MAX_DESTINATIONS = 7;
export const FULL_REWARD_ZONE = 300_000;
export const FEE_REFERENCE_TX_WEIGHT = 3000n;
export const TESTNET_VERSION = 19;
export const TESTNET_PORTS = { p2p: 29080, rpc: 29081, zmq: 29082 } as const;

/** Hard forks on testnet: version → first height (reference §5). */
export const TESTNET_HARD_FORKS: ReadonlyArray<{ version: number; height: number }> = [
  { version: 1, height: 1 },
  { version: 2, height: 250 },
  { version: 3, height: 500 },
  { version: 4, height: 600 },
  { version: 5, height: 800 },
  { version: 6, height: 815 },
  { version: 7, height: 900 },
  { version: 8, height: 950 },
  { version: 9, height: 1000 },
  { version: 10, height: 1100 },
  { version: 11, height: 1200 },
  { version: 12, height: 1300 },
  { version: 13, height: 1400 },
];
export const HF_SHUTDOWN = 5;
export const HF_SAL1 = 6;
export const HF_CARROT = 10;
export const HF_TOKENS = 11;

/** Block version at a block index (height as a count of blocks before it). Genesis (index 0) is v1. */
export function hardForkAt(blockIndex: number): number {
  let v = 1;
  for (const hf of TESTNET_HARD_FORKS) if (blockIndex >= hf.height) v = hf.version;
  return v;
}

/** The next block's hard-fork version for a chain of `count` blocks (what `hard_fork_info.version` reports). */
export const nextHardFork = (count: number): number => hardForkAt(count);

/** Treasury mint of 1 300 000 SAL1 in blocks 1100, 1120, …, 1240. */
export const TREASURY_MINT = 1_300_000n * COIN;
export function isTreasuryMintHeight(index: number): boolean {
  return index >= 1100 && index <= 1240 && (index - 1100) % 20 === 0;
}

export enum TxType {
  UNSET = 0,
  MINER = 1,
  PROTOCOL = 2,
  TRANSFER = 3,
  CONVERT = 4,
  BURN = 5,
  STAKE = 6,
  RETURN = 7,
  AUDIT = 8,
  CREATE_TOKEN = 9,
  ROLLUP = 10,
}

export const TOKEN_PRICE = 1000n * COIN;
export const PREMIUM_TOKEN_PRICE = 10_000n * COIN;
export const PREMIUM_TICKERS: ReadonlySet<string> = new Set(
  (
    'USDT USDC WBTC DOGE SHIB AVAX ATOM NEAR TRON HBAR AAVE FLOW EGLD KLAY LUNA DASH NANO CORE BEAM DYDX COMP SAND MANA ' +
    'RUNE PYTH ARKM BLUR STRK PEPE BONK VIUM GOLD SILV CASH EURO PESO BOND FUND BANK SWAP LEND LOAN NOTE HOLD BULL BEAR ' +
    'TECH DATA HASH NODE BYTE GRID CODE META WEB3 NFTS DEFI LAND REAL RENT FARM OILX ENRG FUEL VOTE PASS LOCK'
  ).split(' '),
);
export const tokenPrice = (ticker: string): bigint => (PREMIUM_TICKERS.has(ticker) ? PREMIUM_TOKEN_PRICE : TOKEN_PRICE);
/** Wallet/consensus limit on token supply, in whole tokens. */
export const MAX_TOKEN_SUPPLY = MONEY_SUPPLY / COIN;

/** Coinbase asset: SAL below HF6 (height 815), SAL1 from then on. */
export const coinbaseAsset = (blockIndex: number): 'SAL' | 'SAL1' =>
  hardForkAt(blockIndex) >= HF_SAL1 ? 'SAL1' : 'SAL';
