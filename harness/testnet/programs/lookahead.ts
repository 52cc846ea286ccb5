// The subaddress lookahead of the wallets saltnet creates with the wallet CLI (`--subaddress-lookahead
// major:minor`, stored in the keys file). wallet2's default, 50:200, makes every load of a wallet
// rebuild a map of 51 × 201 × 2 subaddress keys (carrot_and_legacy_account::generate_subaddress_map,
// called from wallet2::load) and its creation derive 50 × 200 more: seconds of each wallet RPC start
// (docs/startup-profile.md). saltnet's default is small; the real default is one flag away.
//
// What it changes: a wallet detects payments to the subaddresses within its lookahead (and to those
// created with add_subaddress / add_subaddress_account, each of which moves the window on). With
// 2:20, a payment to subaddress (0, 25) of a wallet that never created it is not seen until the
// wallet creates subaddresses up to it; with 50:200 it is.
import { z } from 'zod';

/** wallet2's own default (SUBADDRESS_LOOKAHEAD_MAJOR:SUBADDRESS_LOOKAHEAD_MINOR). */
export const WALLET2_LOOKAHEAD = '50:200';
/** saltnet's default for the wallets it creates. */
export const DEFAULT_LOOKAHEAD = '2:20';
/** wallet2 refuses more (a uint32 each). */
const MAX = 0xffffffff;

export interface Lookahead {
  major: number;
  minor: number;
}

/** `major:minor`, each a whole number from 1 (wallet2 refuses 0); undefined when it is not one. */
export function parseLookahead(text: string): Lookahead | undefined {
  const m = /^\s*(\d{1,10})\s*:\s*(\d{1,10})\s*$/.exec(text);
  if (!m) return undefined;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major < 1 || minor < 1 || major > MAX || minor > MAX) return undefined;
  return { major, minor };
}

/** The normal form, `2:20`. */
export function formatLookahead(l: Lookahead): string {
  return `${l.major}:${l.minor}`;
}

export const LOOKAHEAD_EXPECTED = `major:minor, two whole numbers from 1 (e.g. ${DEFAULT_LOOKAHEAD}; the wallet's own default is ${WALLET2_LOOKAHEAD})`;

/** The config file's schema: the normal form afterwards. */
export const lookaheadSchema = z
  .string()
  .refine((s) => parseLookahead(s) !== undefined, { error: `expected ${LOOKAHEAD_EXPECTED}` })
  .transform((s) => formatLookahead(parseLookahead(s)!));
