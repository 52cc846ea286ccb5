// The coin of each chain a backend runs: the units its amounts are written in, their decimals, the
// money supply, and the address prefixes that say which chain, network and kind an address is. A
// backend's BackendSpec holds its coin (backends.ts); amounts, `--unlocked`, scenario limits, the
// diff's address rule and the did-you-mean lists read them from BACKENDS, never from a list of
// their own.
import { base58Decode, decodeVarint } from '../sim/index.js';

export type AddressNetwork = 'mainnet' | 'testnet' | 'stagenet';
export type AddressFamily = 'cn' | 'carrot';
export type AddressType = 'standard' | 'integrated' | 'subaddress';

/** A prefix of the chain's base58 addresses: varint(prefix) starts every address of that kind. */
export interface AddressPrefix {
  network: AddressNetwork;
  family: AddressFamily;
  type: AddressType;
  prefix: number;
}

export interface CoinSpec {
  /** What the chain is called in messages and the diff's address rule: `salvium`, `monero`. */
  chain: string;
  /** The unit amounts are counted in (`1.5 SAL1`), with its decimals. */
  unit: string;
  decimals: number;
  /** Other units amounts may be written in on this chain, with their decimals (Salvium's pre-HF6 SAL). */
  otherUnits?: Record<string, number>;
  /** The most there can ever be, in atomic units: no amount a scenario names is larger. */
  supply: bigint;
  addressPrefixes: readonly AddressPrefix[];
}

const cn = (network: AddressNetwork, standard: number, integrated: number, subaddress: number): AddressPrefix[] => [
  { network, family: 'cn', type: 'standard', prefix: standard },
  { network, family: 'cn', type: 'integrated', prefix: integrated },
  { network, family: 'cn', type: 'subaddress', prefix: subaddress },
];
const carrot = (network: AddressNetwork, standard: number, integrated: number, subaddress: number): AddressPrefix[] =>
  cn(network, standard, integrated, subaddress).map((p) => ({ ...p, family: 'carrot' }));

/**
 * Salvium: src/cryptonote_config.h (config, config::testnet, config::stagenet; the CARROT_* constants from the Carrot
 * release on). SaLv… / SaLvT… / SaLvS… (CN), SC1… / SC1T… / SC1S… (Carrot).
 */
export const SALVIUM_COIN: CoinSpec = {
  chain: 'salvium',
  unit: 'SAL1',
  decimals: 8,
  otherUnits: { SAL: 8 },
  // MONEY_SUPPLY: 184 400 000 coins
  supply: 18_440_000_000_000_000n,
  addressPrefixes: [
    ...cn('mainnet', 0x3ef318, 0x55ef318, 0xf5ef318),
    ...cn('testnet', 0x15beb318, 0xd055eb318, 0xa59eb318),
    ...cn('stagenet', 0x149eb318, 0xf343eb318, 0x2d47eb318),
    ...carrot('mainnet', 0x180c96, 0x2ccc96, 0x314c96),
    ...carrot('testnet', 0x254c96, 0x1ac50c96, 0x3c54c96),
    ...carrot('stagenet', 0x24cc96, 0x1a848c96, 0x384cc96),
  ],
};

/** Monero: its src/cryptonote_config.h; the supply is the 64-bit amount limit (the tail emission never ends). */
export const MONERO_COIN: CoinSpec = {
  chain: 'monero',
  unit: 'XMR',
  decimals: 12,
  supply: 2n ** 64n - 1n,
  addressPrefixes: [...cn('mainnet', 18, 19, 42), ...cn('testnet', 53, 54, 63), ...cn('stagenet', 24, 25, 36)],
};

/** Every unit of these coins with its decimals (each coin's own unit and its other units). */
export function unitsOf(coins: Iterable<CoinSpec>): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of coins) {
    out.set(c.unit, c.decimals);
    for (const [u, d] of Object.entries(c.otherUnits ?? {})) out.set(u, d);
  }
  return out;
}

/** `salvium testnet carrot standard` when `text` is an address of one of these coins (prefix and length only). */
export function addressKindOf(coins: Iterable<CoinSpec>, text: string): string | undefined {
  if (text.length < 90 || text.length > 120) return undefined;
  const raw = base58Decode(text);
  if (!raw) return undefined;
  const tag = decodeVarint(raw);
  if (!tag) return undefined;
  const body = raw.length - tag.length;
  if (body !== 68 && body !== 76) return undefined; // two keys + checksum, plus a payment id when integrated
  for (const c of coins) {
    const p = c.addressPrefixes.find((x) => x.prefix === tag.value);
    if (p) return `${c.chain} ${p.network} ${p.family} ${p.type}`;
  }
  return undefined;
}
