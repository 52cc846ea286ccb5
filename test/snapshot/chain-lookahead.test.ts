// The wallets' subaddress lookahead is written in their keys files, so it is part of a chain state's key: a manifest
// says it in extra.lookahead, and the key computed again from the manifest must include it (chain-check.ts).
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../harness/snapshot/key.js';
import { chainKeyOf } from '../../harness/testnet/chain/chain-cache.js';
import { chainManifestProblem } from '../../harness/testnet/chain/chain-check.js';
import { manifestOf, SIM_BINARIES, UNLOCKED } from './craft.js';

const files = new Map([['daemon/blocks.json', Buffer.from('[]')]]);
const keyWith = (lookahead?: string): string =>
  cacheKey(
    chainKeyOf({
      backend: 'sim',
      binaries: SIM_BINARIES,
      prefixDifficulty: 1,
      height: 300,
      unlocked: UNLOCKED,
      ...(lookahead ? { lookahead } : {}),
    }),
  );
const manifest = (key: string, lookahead: unknown) =>
  manifestOf(files, { height: 300, key, over: { extra: { unlocked: UNLOCKED, target: 300, lookahead } } });

describe('a chain state key and its lookahead', () => {
  it('differs between lookaheads, and from a key made without one', () => {
    expect(new Set([keyWith('2:20'), keyWith('50:200'), keyWith()]).size).toBe(3);
  });

  it('is accepted when the manifest says the lookahead the key was made with', () => {
    expect(chainManifestProblem(manifest(keyWith('2:20'), '2:20'))).toBeUndefined();
  });

  it('is refused when the manifest says another lookahead, naming extra.lookahead', () => {
    expect(chainManifestProblem(manifest(keyWith('2:20'), '50:200'))).toContain('extra.lookahead');
  });

  it('is refused when extra.lookahead is not a string', () => {
    expect(chainManifestProblem(manifest(keyWith('2:20'), 220))).toBe(
      "its manifest's extra.lookahead is 220, not a major:minor string",
    );
  });
});
