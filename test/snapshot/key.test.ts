import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cacheKey,
  cacheKeyDigest,
  canonicalJson,
  fileSha256,
  isValidKey,
  type CacheKeyInput,
} from '../../harness/snapshot/key.js';
import { cleanup, tempDir } from './helpers.js';

afterEach(cleanup);

const base: CacheKeyInput = {
  backend: 'sim',
  binaries: { salviumd: 'a'.repeat(64), 'salvium-wallet-rpc': 'b'.repeat(64), 'salvium-wallet-cli': 'c'.repeat(64) },
  difficulty: 500,
  height: 1201,
  unlocked: '1001 SAL1',
  walletSeeds: ['seed-main', 'seed-bob'],
  formatVersion: 1,
};

describe('cacheKey', () => {
  it('is readable and stable: same input, same key, whatever the object key order', () => {
    const k = cacheKey(base);
    expect(k).toMatch(/^sim-d500-h1201-[0-9a-f]{12}$/);
    expect(isValidKey(k)).toBe(true);
    const reordered: CacheKeyInput = {
      formatVersion: 1,
      walletSeeds: ['seed-main', 'seed-bob'],
      unlocked: '1001 SAL1',
      height: 1201,
      difficulty: 500,
      binaries: {
        'salvium-wallet-cli': 'c'.repeat(64),
        salviumd: 'a'.repeat(64),
        'salvium-wallet-rpc': 'b'.repeat(64),
      },
      backend: 'sim',
    };
    expect(cacheKey(reordered)).toBe(k);
    expect(cacheKeyDigest(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(k.endsWith(cacheKeyDigest(base).slice(0, 12))).toBe(true);
    // Pinned: a change here invalidates every snapshot users have, so it must be deliberate.
    expect(cacheKeyDigest(base)).toBe(
      createHash('sha256')
        .update(
          '{"backend":"sim","binaries":{"salvium-wallet-cli":"' +
            'c'.repeat(64) +
            '","salvium-wallet-rpc":"' +
            'b'.repeat(64) +
            '","salviumd":"' +
            'a'.repeat(64) +
            '"},"difficulty":500,"formatVersion":1,"height":1201,"unlocked":"1001 SAL1","walletSeeds":["seed-main","seed-bob"]}',
        )
        .digest('hex'),
    );
    const { unlocked: _u, ...noUnlocked } = base;
    expect(cacheKey({ ...noUnlocked, unlocked: undefined })).toBe(cacheKey(noUnlocked));
  });

  const changes: [string, Partial<CacheKeyInput>][] = [
    ['backend', { backend: 'salvium' }],
    ['a binary hash', { binaries: { ...base.binaries, salviumd: 'd'.repeat(64) } }],
    [
      'a binary name',
      {
        binaries: {
          salviumd2: 'a'.repeat(64),
          'salvium-wallet-rpc': 'b'.repeat(64),
          'salvium-wallet-cli': 'c'.repeat(64),
        },
      },
    ],
    ['one more binary', { binaries: { ...base.binaries, extra: 'e'.repeat(64) } }],
    ['difficulty', { difficulty: 501 }],
    ['height', { height: 1202 }],
    ['unlocked', { unlocked: '1002 SAL1' }],
    ['unlocked left out', { unlocked: undefined }],
    ['a wallet seed', { walletSeeds: ['seed-main', 'seed-carol'] }],
    ['one more wallet', { walletSeeds: ['seed-main', 'seed-bob', 'seed-carol'] }],
    ['wallet order', { walletSeeds: ['seed-bob', 'seed-main'] }],
    ['formatVersion', { formatVersion: 2 }],
  ];
  it.each(changes)('changes with %s', (_what, change) => {
    expect(cacheKey({ ...base, ...change })).not.toBe(cacheKey(base));
  });

  it('names the backend, difficulty and height in the prefix, and makes any backend name folder-safe', () => {
    expect(cacheKey({ ...base, backend: 'salvium', difficulty: 1, height: 10 })).toMatch(
      /^salvium-d1-h10-[0-9a-f]{12}$/,
    );
    expect(cacheKey({ ...base, backend: '../My Backend!' })).toMatch(/^mybackend-d500-h1201-/);
  });

  it('refuses inputs that are not what they claim', () => {
    expect(() => cacheKey({ ...base, height: 1.5 })).toThrow(/height must be a non-negative integer/);
    expect(() => cacheKey({ ...base, difficulty: -1 })).toThrow(/difficulty/);
    expect(() => cacheKey({ ...base, backend: '' })).toThrow(/backend/);
    expect(() => cacheKey({ ...base, walletSeeds: [1 as unknown as string] })).toThrow(/walletSeeds/);
  });

  it('canonicalJson sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined, x: null }], c: 'é' } })).toBe(
      '{"a":{"c":"é","d":[3,{"x":null,"z":1}]},"b":1}',
    );
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });
});

describe('fileSha256', () => {
  it('streams a file through sha256', async () => {
    const dir = tempDir('sha');
    const data = randomBytes(3 * 1024 * 1024 + 17);
    writeFileSync(join(dir, 'big'), data);
    writeFileSync(join(dir, 'empty'), '');
    expect(await fileSha256(join(dir, 'big'))).toBe(createHash('sha256').update(data).digest('hex'));
    expect(await fileSha256(join(dir, 'empty'))).toBe(createHash('sha256').digest('hex'));
    await expect(fileSha256(join(dir, 'nope'))).rejects.toThrow(/ENOENT/);
  });
});
