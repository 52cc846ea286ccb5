// The scenario a recording becomes, from recordings written by hand: readable forms only where
// they send the same request, placeholders and saves, volatile values by their form, mining.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { recordingToScenario } from '../../harness/record/write.js';
import type { RecordedCall, RecordedEvent, SessionRecording } from '../../harness/record/types.js';
import { BACKENDS } from '../../harness/coin/backends.js';

const MAIN = {
  cn: 'SaLvTyLFta9BiAXeUfFkKvViBkFt4ay5nEUcd6mtt5fYEHWvLf2nhMt9gjwbyQ4XV9VVhUYKsTFsjiYTrmm5BXXrdbPSLpxAzH4',
  carrot: 'SC1TjPj1LG7mQHHEjLCMgVLg9fAxQhyYh7ysmEjUsy9TSBHKvz6DtGAUSqzK9ZvKJJ2u5gc6hBLsC8E6wTDx5d5fVBixvASZyd9',
};
const BOB = {
  cn: 'SaLvTxHb5jWHWNaMfVSHMA8jPfK7pQMp8aGz4bASAJN4mcC4Ss9PUeYu1ZgjZ7D4P4qKxvdrbojSvRK3RE6mdbc2hXW7kDYY3jj',
  carrot: 'SC1TooS5kSdnwJk5FSL3xpKobbpTpykEpLqzy7KLTUJuxkPVpCU1ne4LBXMXxhZQA2hohzgHMKjtZAp1oWZdyRfQCS6S9JLqCQW',
};
const HASH = 'ab'.repeat(32);

const call = (
  method: string,
  params: unknown,
  answer: RecordedCall['answer'],
  extra: Partial<RecordedCall> = {},
): RecordedCall => ({ kind: 'call', on: 'wallet', wallet: 'main', method, params, answer, ms: 1, ...extra });

function scenario(events: RecordedEvent[], history: 'fresh' | 'unknown' = 'fresh', localPaths?: string[]) {
  const rec: SessionRecording = {
    ...(localPaths ? { localPaths } : {}),
    startedAt: '2026-11-25T12:00:00.000Z',
    spec: BACKENDS.salvium,
    height: 1201,
    wallets: [
      { name: 'main', addresses: MAIN, funded: history === 'fresh' ? { SAL1: 110_000_000_000n } : {}, history },
      ...(history === 'fresh' ? [{ name: 'bob', addresses: BOB, funded: {}, history }] : []),
    ],
    events,
  };
  const { text } = recordingToScenario(rec, { file: '/tmp/x/recorded.yaml' });
  return { text, doc: parse(text) };
}

const sent = (asset: string, amount: number, extra: Record<string, unknown> = {}) => ({
  destinations: [{ address: BOB.carrot, amount, asset_type: asset }],
  source_asset: asset,
  dest_asset: asset,
  tx_type: 3,
  ...extra,
});

describe('recordingToScenario', () => {
  it('writes the readable form only when it sends exactly the recorded request', () => {
    const { doc } = scenario([
      call('transfer', sent('SAL1', 1_050_000_000), { result: { tx_hash: HASH, fee: 1239160 } }),
      call('transfer', sent('SAL1', 5, { priority: 1 }), { result: {} }),
      call('transfer', { destinations: [{ address: BOB.carrot, amount: 5, asset_type: 'SAL1' }] }, { result: {} }),
    ]);
    expect(doc.steps[0].transfer).toEqual({ to: '${bob.address}', amount: '10.5 SAL1' });
    expect(doc.steps[0].expect).toEqual({
      'result.tx_hash': { matches: '^[0-9a-f]{64}$' },
      'result.fee': { all: [{ gte: 619580 }, { lte: 2478320 }] },
    });
    expect(doc.steps[1].transfer).toEqual({ to: '${bob.address}', amount: '0.00000005 SAL1', priority: 1 });
    // no tx_type, no assets: the readable form would add them, so the request is sent as written
    expect(doc.steps[2]).toMatchObject({
      call: {
        method: 'transfer',
        params: { destinations: [{ address: '${bob.address}', amount: 5, asset_type: 'SAL1' }] },
      },
    });
  });

  it('describes what it recorded with the right number: 1 request, 2 requests', () => {
    const one = scenario([call('get_balance', {}, { result: {} })]).doc.description;
    expect(one).toBe(
      'Recorded by saltnet record on the salvium backend: 1 request as it was sent, and what came back.',
    );
    const two = scenario([call('get_balance', {}, { result: {} }), call('get_height', {}, { result: {} })]).doc;
    expect(two.description).toBe(
      'Recorded by saltnet record on the salvium backend: 2 requests as they were sent, and what came back.',
    );
  });

  it("expects a transaction's fee within a factor of 2 (the input count is random), and a fee rate exactly", () => {
    const { doc } = scenario([
      call('transfer_split', sent('SAL1', 100), { result: { tx_hash_list: [HASH], fee_list: [1239161, 0] } }),
      call('get_transfers', { in: true }, { result: { in: [{ txid: HASH, fee: 1239160, amount: 100 }] } }),
      call('get_fee_estimate', {}, { result: { fee: 20, status: 'OK' } }, { on: 'daemon', wallet: undefined }),
    ]);
    expect(doc.steps[0].expect).toMatchObject({
      'result.fee_list[0]': { all: [{ gte: 619581 }, { lte: 2478322 }] },
      'result.fee_list[1]': 0,
    });
    // in a list of transfers each entry is looked for by its exact fields: the fee is left out
    expect(doc.steps[1].expect['result.in']).toEqual({
      all: [{ length: 1 }, { contains: { txid: '${transfer_split_tx_hash}', amount: 100 } }],
    });
    expect(doc.steps[2].expect).toEqual({ 'result.fee': 20, 'result.status': 'OK' });
  });

  it('a mining loop that overshot: mines what the app waited for, and says what was not replayed', () => {
    const { text, doc } = scenario([
      { kind: 'mine', blocks: 11, overshoot: 154 },
      call('get_balance', {}, { result: { balance: 5 } }),
    ]);
    expect(doc.steps[0]).toEqual({ mine: 11 });
    expect(text).toContain(
      '# mining: 11 blocks the app waited for (the height its last poll saw); the daemon mined 154 more before mining stopped, which a replay does not',
    );
    const popped = scenario([{ kind: 'mine', blocks: 11, overshoot: 154, popped: true }, call('get_balance', {}, {})]);
    expect(popped.text).toContain(
      'the daemon mined 154 more before mining stopped, which saltnet popped before the app went on, as a replay never mines them',
    );
  });

  it('saves a value an answer produced where a later request sends it, and escapes ${ in text', () => {
    const { doc } = scenario([
      call('transfer', sent('SAL1', 100), { result: { tx_hash: HASH } }),
      call('get_transfers', { in: true }, { result: { in: [{ txid: HASH, note: 'pay ${x}' }] } }, { wallet: 'bob' }),
      call(
        'relay_tx',
        { hex: HASH, note: 'a ${literal}' },
        { error: { code: -1, message: `no tx ${HASH} in the pool` } },
      ),
    ]);
    expect(doc.steps[0].save).toEqual({ transfer_tx_hash: 'result.tx_hash' });
    // entries of one block come in no fixed order: each is looked for by its exact fields
    expect(doc.steps[1]).toMatchObject({
      wallet: 'bob',
      expect: {
        'result.in': { all: [{ length: 1 }, { contains: { txid: '${transfer_tx_hash}', note: 'pay $${x}' } }] },
      },
    });
    expect(doc.steps[2].call.params).toEqual({ hex: '${transfer_tx_hash}', note: 'a $${literal}' });
    expect(doc.steps[2].expect_error).toEqual({ code: -1, message: { matches: '^no tx [0-9a-f]{64} in the pool$' } });
  });

  it('checks what depends on where the chain is by its type, and a chain-wide list by what it contains', () => {
    const { doc } = scenario([
      call('get_tokens', {}, { result: { tokens: ['salABC1', 'salABC2'] } }),
      {
        kind: 'call',
        on: 'daemon',
        path: '/get_info',
        params: {},
        answer: {
          result: {
            height: 1300,
            status: 'OK',
            top_block_hash: HASH,
            difficulty: 1,
            database_size: 5,
            start_time: 1764000000,
          },
        },
        ms: 1,
      },
    ]);
    expect(doc.steps[0].expect).toEqual({
      'result.tokens': { all: [{ contains: 'salABC1' }, { contains: 'salABC2' }] },
    });
    expect(doc.steps[1]).toEqual({
      call: { path: '/get_info' },
      expect: {
        'result.height': { type: 'number' },
        'result.status': 'OK',
        'result.top_block_hash': { matches: '^[0-9a-f]{64}$' },
        'result.difficulty': { type: 'number' },
        'result.database_size': { type: 'number' },
        'result.start_time': { type: 'number' },
      },
    });
  });

  it('turns mining into mine steps (the height read that starts a mining loop included) and keeps what it cannot replay as a comment', () => {
    const { doc, text } = scenario([
      {
        kind: 'call',
        on: 'daemon',
        path: '/get_height',
        params: {},
        answer: { result: { height: 1210, status: 'OK' } },
        ms: 1,
      },
      { kind: 'mine', blocks: 3 },
      { kind: 'mine', blocks: 2 },
      { kind: 'skipped', why: '/getblocks.bin: a binary (epee) endpoint, which a scenario cannot send' },
      call('get_balance', {}, { result: { balance: 5 } }),
    ]);
    expect(doc.steps.slice(0, 1)).toEqual([{ mine: 5 }]);
    expect(text).toMatch(/# not replayed: \/getblocks\.bin: a binary \(epee\) endpoint[^\n]*\n\s+- get_balance: \{\}/);
    expect(doc.requires).toEqual({ height: 1201, unlocked: { SAL1: '1100 SAL1' } });
    expect(doc.wallets).toEqual({ bob: {} });
  });

  it("on a running testnet (main's history unknown): no exact balances, and main must hold what the session spent", () => {
    const { doc } = scenario(
      [
        call('get_balance', {}, { result: { balance: 123456789 } }),
        call('transfer', sent('SAL1', 2000 * 100_000_000), { result: {} }),
      ],
      'unknown',
    );
    expect(doc.steps[0].expect).toEqual({ result: { type: 'object' } });
    expect(doc.requires.unlocked).toEqual({ SAL1: '2001 SAL1' });
    expect(doc.wallets).toBeUndefined();
  });

  it('writes no secret: a password sent becomes ${env.…}, a key or seed that came back only its type', () => {
    const { doc, text } = scenario([
      call('open_wallet', { filename: 'w', password: 'hunter2-secret' }, { result: {} }),
      call(
        'query_key',
        { key_type: 'mnemonic' },
        { result: { key: 'abbey ability able about above absent secretwords' } },
      ),
    ]);
    expect(text).not.toMatch(/hunter2|secretwords/);
    expect(doc.steps[0].call.params).toEqual({ filename: 'w', password: '${env.SALTNET_RECORDED_PASSWORD}' });
    expect(doc.steps[1].expect).toEqual({ 'result.key': { type: 'string' } });
  });

  it('matches a folder of the recording machine an answer names by a pattern, so that the replay passes elsewhere', () => {
    const workdir = '/tmp/saltnet-mwwybgq8-76e8c8';
    const { doc } = scenario(
      [
        call(
          'open_wallet',
          { filename: 'nope', password: '' },
          { error: { code: -1, message: `Failed to open wallet : file not found "${workdir}/wallets/nope.keys"` } },
        ),
        call('get_languages', {}, { result: { languages: ['English'], where: `/home/me/x ${HASH}` } }),
      ],
      'fresh',
      [workdir, '/home/me', '/tmp'],
    );
    const pattern = doc.steps[0].expect_error.message.matches as string;
    expect(pattern).toBe('^Failed to open wallet : file not found ".+/wallets/nope\\.keys"$');
    const re = new RegExp(pattern);
    expect(re.test('Failed to open wallet : file not found "/var/tmp/saltnet-other/wallets/nope.keys"')).toBe(true);
    expect(re.test('Failed to open wallet : file not found "/tmp/x/wallets/other.keys"')).toBe(false);
    expect(doc.steps[1].expect['result.where']).toEqual({ matches: '^.+/x [0-9a-f]{64}$' });
    expect(JSON.stringify(doc)).not.toContain('saltnet-mwwybgq8');
  });

  it('refuses a session with nothing in it', () => {
    expect(() => scenario([])).toThrow('nothing was recorded');
  });
});
