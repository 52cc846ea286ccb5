// The value rules of `saltnet diff`: which answers agree (random values of the same form) and which
// diverge (a deterministic value, a key, a JSON type, an error), and where.
import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../harness/diff/compare.js';
import { builtTxids } from '../../harness/diff/inputs.js';
import { addressKind, classify, near, opaqueShape, shapeOf } from '../../harness/diff/rules.js';
import { decodeAddress, encodeAddress } from '../../harness/sim/crypto/address.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import { wordsToSeed } from '../../harness/sim/crypto/mnemonic.js';
import { fixtureWallet } from '../../harness/testnet/programs/fixture-wallets.js';

const hex = (c: string): string => c.repeat(64);
const main = walletFromSeed(wordsToSeed(fixtureWallet('main').seed), 'testnet');
const miner = walletFromSeed(wordsToSeed(fixtureWallet('miner').seed), 'testnet');

/** A transfer answer as both backends give it: only the random parts differ between a and b. */
function transfer(seed: 'a' | 'b', over: Record<string, unknown> = {}): Record<string, unknown> {
  const h = seed === 'a' ? '1' : '2';
  return {
    id: seed === 'a' ? '3' : '7',
    jsonrpc: '2.0',
    result: {
      amount: 150_000_000,
      fee: 30_720_000n,
      tx_hash: hex(h),
      tx_key: hex(seed === 'a' ? 'a' : 'b'),
      tx_blob: seed === 'a' ? 'ab'.repeat(700) : 'cd'.repeat(650),
      spent_key_images: { key_images: [hex(h === '1' ? 'e' : 'f'), hex(h)] },
      unsigned_txset: '',
      weight: seed === 'a' ? 1520 : 1518,
      payment_id: seed === 'a' ? '115297c1c0b0aa4b' : '70b3197b0bc70171',
      timestamp: seed === 'a' ? 1_795_447_855 : 1_795_447_873,
      unlock_time: 0,
      height: 1212,
      address: seed === 'a' ? main.carrot.address : miner.carrot.address,
      url: `http://127.0.0.1:${seed === 'a' ? 41169 : 44313}/rich.json`,
      ...over,
    },
  };
}

describe('answers that agree', () => {
  it('the same shapes with different hashes, keys, blobs, ids, timestamps, addresses and ports, and weights a few bytes apart: no divergence', () => {
    expect(compareAnswers(transfer('a'), transfer('b'))).toEqual([]);
  });

  it('equal errors, and equal amounts given once as a number and once as a bigint', () => {
    const e = { error: { code: -1, message: "Source asset 'XYZW' not found in wallet" } };
    expect(compareAnswers(e, structuredClone(e))).toEqual([]);
    expect(compareAnswers({ result: { balance: 5n } }, { result: { balance: 5 } })).toEqual([]);
  });
});

describe('answers that diverge', () => {
  it('a differing amount is a value divergence at its path', () => {
    expect(compareAnswers(transfer('a'), transfer('b', { amount: 150_000_001 }))).toEqual([
      { path: 'result.amount', kind: 'value', a: '150000000', b: '150000001' },
    ]);
  });

  it('bigints differing beyond 2^53 are told apart', () => {
    expect(compareAnswers({ result: { supply: 2n ** 60n } }, { result: { supply: 2n ** 60n + 1n } })).toEqual([
      { path: 'result.supply', kind: 'value', a: String(2n ** 60n), b: String(2n ** 60n + 1n) },
    ]);
  });

  it('a key only one side has', () => {
    const b = transfer('b');
    delete (b.result as Record<string, unknown>).weight;
    (b.result as Record<string, unknown>).extra = true;
    expect(compareAnswers(transfer('a'), b)).toEqual([
      { path: 'result.weight', kind: 'only-in-a', a: '1520', b: '(absent)' },
      { path: 'result.extra', kind: 'only-in-b', a: '(absent)', b: 'true' },
    ]);
  });

  it('a type change, also of a random value', () => {
    expect(compareAnswers(transfer('a'), transfer('b', { fee: '30720000', tx_hash: 5 }))).toEqual([
      { path: 'result.fee', kind: 'type', a: '30720000', b: '"30720000"', detail: 'number ≠ string' },
      { path: 'result.tx_hash', kind: 'type', a: JSON.stringify(hex('1')), b: '5', detail: 'string ≠ number' },
    ]);
  });

  it('a different error code or message', () => {
    const a = { error: { code: -1, message: "Source asset 'XYZW' not found in wallet" } };
    expect(compareAnswers(a, { error: { code: -2, message: a.error.message } })).toEqual([
      { path: 'error.code', kind: 'value', a: '-1', b: '-2' },
    ]);
    expect(compareAnswers(a, { error: { code: -1, message: 'No such asset' } })).toEqual([
      { path: 'error.message', kind: 'value', a: JSON.stringify(a.error.message), b: '"No such asset"' },
    ]);
  });

  it('a result against an error is one divergence of the whole answer', () => {
    expect(
      compareAnswers(
        { result: { tokens: [] } },
        { error: { code: -7, message: 'Asset type must be exactly 4 characters long.' } },
      ),
    ).toEqual([
      { path: '(answer)', kind: 'answer', a: 'a result', b: 'error -7: Asset type must be exactly 4 characters long.' },
    ]);
  });

  it('a hash of another form, a timestamp out of range, an address of another kind', () => {
    const out = compareAnswers(
      transfer('a'),
      transfer('b', { tx_hash: hex('A'), timestamp: 17, address: main.cn.address }),
    );
    expect(out.map((d) => [d.path, d.kind, d.rule, d.detail])).toEqual([
      ['result.tx_hash', 'format', 'hash or key', 'lowercase hex, 64 chars ≠ uppercase hex, 64 chars'],
      ['result.timestamp', 'format', 'timestamp', 'a time in seconds since 1970 ≠ 17'],
      [
        'result.address',
        'format',
        'address',
        'address (salvium testnet carrot standard) ≠ address (salvium testnet cn standard)',
      ],
    ]);
  });

  it('lists of different lengths: one length divergence, then their common elements', () => {
    const out = compareAnswers({ result: { tokens: ['salABCD', 'salWXYZ'] } }, { result: { tokens: ['salABCE'] } });
    expect(out).toEqual([
      {
        path: 'result.tokens',
        kind: 'length',
        a: '["salABCD","salWXYZ"]',
        b: '["salABCE"]',
        detail: '2 items ≠ 1 item',
      },
      { path: 'result.tokens[0]', kind: 'value', a: '"salABCD"', b: '"salABCE"' },
    ]);
  });

  it('heights compare exactly (mining ends exactly at its target on every backend)', () => {
    expect(compareAnswers(transfer('a'), transfer('b', { height: 1213 }))).toEqual([
      { path: 'result.height', kind: 'value', a: '1212', b: '1213' },
    ]);
  });

  it('sizes more than 3% apart diverge; the build named in a version string does not', () => {
    const header = (w: number): unknown => ({ result: { block_header: { block_weight: w, hash: hex('3') } } });
    expect(compareAnswers(header(1520), header(1566))).toEqual([]);
    expect(compareAnswers(header(1520), header(1570))).toEqual([
      {
        path: 'result.block_header.block_weight',
        kind: 'value',
        a: '1520',
        b: '1570',
        detail: 'more than 3% apart',
        rule: 'size',
      },
    ]);
    const version = (v: string): unknown => ({ result: { version: v } });
    expect(
      compareAnswers(
        version('1.1.3c-simulated, based on Monero 0.18.4.0-release'),
        version('1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release'),
      ),
    ).toEqual([]);
    expect(compareAnswers({ result: { version: 12 } }, { result: { version: 13 } })).toHaveLength(1);
  });

  it("get_balance's balances and get_transfers' out/pending/pool/failed compare in any order (hash maps on real), other lists in order", () => {
    const bal = (...assets: string[]): unknown => ({
      result: { balances: assets.map((a) => ({ asset_type: a, balance: a.length })) },
    });
    expect(compareAnswers(bal('SAL1', 'salMNT1'), bal('salMNT1', 'SAL1'))).toEqual([]);
    expect(compareAnswers(bal('SAL1', 'salMNT1'), bal('salMNT1', 'SAL1', 'salXYZ1'))).toMatchObject([
      { path: 'result.balances', kind: 'length' },
    ]);
    // get_transfers' out entries come from an unordered map keyed by txid on real: any order too.
    const outs = (...e: [number, string][]): unknown => ({
      result: { out: e.map(([height, asset_type]) => ({ height, asset_type, amount: 1, txid: hex('4') })) },
    });
    expect(compareAnswers(outs([1779, 'salTRF1'], [1778, 'SAL1']), outs([1778, 'SAL1'], [1779, 'salTRF1']))).toEqual(
      [],
    );
    expect(compareAnswers(outs([1779, 'salTRF1']), outs([1779, 'SAL1']))).toHaveLength(1);
    // Two payments to oneself in one block (amount 0 both) told apart by what their destinations got.
    const selfSends = (...got: number[]): unknown => ({
      result: {
        out: got.map((amount) => ({
          height: 1230,
          amount: 0,
          fee: 1239160,
          destinations: [{ amount }],
          txid: hex('5'),
        })),
      },
    });
    expect(compareAnswers(selfSends(100000000, 1000000), selfSends(1000000, 100000000))).toEqual([]);
    // Two destinations of one amount, a Carrot address and a Carrot subaddress, listed in either order.
    const carrot = main.carrot.address;
    const sub = encodeAddress({ ...decodeAddress(carrot)!, type: 'subaddress' });
    const dests = (...to: string[]): unknown => ({
      result: { transfer: { destinations: to.map((address) => ({ address, amount: 1000000, asset_type: 'SAL1' })) } },
    });
    expect(compareAnswers(dests(carrot, sub), dests(sub, carrot))).toEqual([]);
    const ins = (...h: number[]): unknown => ({ result: { in: h.map((height) => ({ height, amount: 1 })) } });
    expect(compareAnswers(ins(1, 2), ins(2, 1))).toHaveLength(2);
    const tokens = (...t: string[]): unknown => ({ result: { tokens: t } });
    expect(compareAnswers(tokens('salA', 'salB'), tokens('salB', 'salA'))).toHaveLength(2);
  });

  it('a transfer that chose 1 input on one side and 2 on the other (Salvium picks at random): fee, weight and key images agree in order', () => {
    const tx = (fee: number, weight: number, images: number): unknown => ({
      result: {
        fee,
        weight,
        amount: 250_000_000,
        tx_hash: hex('1'),
        spent_key_images: { key_images: Array.from({ length: images }, () => hex('e')) },
      },
    });
    expect(compareAnswers(tx(1_239_160, 2384, 1), tx(1_857_960, 3562, 2))).toEqual([]);
    const entry = (fee: number): unknown => ({ result: { pending: [{ txid: hex('1'), fee, amount: 250_000_000 }] } });
    expect(compareAnswers(entry(1_239_160), entry(1_857_960))).toEqual([]);
    // A fee of another order, a burn that is missing, a fee against none: divergences.
    expect(compareAnswers(tx(1_239_160, 2384, 1), tx(2_600_000, 2384, 1))).toMatchObject([
      { path: 'result.fee', rule: 'fee', detail: 'not within a factor of 2 (what 1 or 2 inputs give)' },
    ]);
    expect(compareAnswers(entry(100_010_521_160), entry(10_521_160))).toMatchObject([
      { path: 'result.pending[0].fee', kind: 'value' },
    ]);
    expect(compareAnswers(entry(0), entry(1_239_160))).toHaveLength(1);
    expect(compareAnswers(tx(1_239_160, 2384, 1), tx(1_239_160, 2384, 0))).toMatchObject([
      { path: 'result.spent_key_images.key_images', kind: 'length' },
    ]);
    // transfer_split: per transaction.
    const split = (fees: number[], weights: number[]): unknown => ({
      result: { fee_list: fees, weight_list: weights, tx_hash_list: fees.map(() => hex('2')) },
    });
    expect(
      compareAnswers(split([2_201_160, 1_857_960], [4221, 3561]), split([3_195_400, 1_857_960], [6134, 3560])),
    ).toEqual([]);
    expect(compareAnswers(split([2_201_160], [4221]), split([2_201_160, 1_857_960], [4221, 3560]))).toMatchObject([
      { path: 'result.fee_list', kind: 'length' },
      { path: 'result.weight_list', kind: 'length' },
      { path: 'result.tx_hash_list', kind: 'length' },
    ]);
    // Amounts parsed as bigints are shown as digits (no "cannot serialize a BigInt").
    expect(
      compareAnswers(
        { result: { fee_list: [1n], tx_hash_list: [hex('2')] } },
        { result: { fee_list: [1n, 2n], tx_hash_list: [hex('2')] } },
      ),
    ).toMatchObject([{ path: 'result.fee_list', kind: 'length', a: '[1]', b: '[1,2]' }]);
    // get_fee_estimate's fee is a rate, not a transaction's: exact.
    expect(
      compareAnswers({ result: { fee: 520, fees: [520, 2080] } }, { result: { fee: 521, fees: [520, 2080] } }),
    ).toEqual([{ path: 'result.fee', kind: 'value', a: '520', b: '521' }]);
  });

  it("when one side followed the other's input counts, a fee compares exactly, a weight within 3% and key images by count", () => {
    const followed = { followed: true };
    const tx = (fee: number, weight: number, images: number): unknown => ({
      result: {
        fee,
        weight,
        tx_hash: hex('1'),
        spent_key_images: { key_images: Array.from({ length: images }, () => hex('e')) },
      },
    });
    expect(compareAnswers(tx(1_857_960, 3561, 2), tx(1_857_960, 3559, 2), followed)).toEqual([]);
    // 11 bytes of an integrated address's payment id at 520 per byte: within a factor of 2, yet another fee.
    expect(compareAnswers(tx(3_195_400, 6134, 2), tx(3_201_120, 6133, 2), followed)).toEqual([
      { path: 'result.fee', kind: 'value', a: '3195400', b: '3201120' },
    ]);
    expect(compareAnswers(tx(3_195_400, 6134, 2), tx(3_201_120, 6133, 2))).toEqual([]);
    // A 3-output tx weighed as a 2-output one (the Bulletproof+ padding missed), and one input against two.
    expect(compareAnswers(tx(2_232_360, 3671, 2), tx(2_232_360, 4281, 2), followed)).toMatchObject([
      { path: 'result.weight', rule: 'size' },
    ]);
    expect(compareAnswers(tx(1_857_960, 3561, 1), tx(1_857_960, 3561, 2), followed)).toMatchObject([
      { path: 'result.spent_key_images.key_images', kind: 'length' },
    ]);
    const split = (fees: number[]): unknown => ({
      result: {
        fee_list: fees,
        tx_hash_list: fees.map(() => hex('2')),
        spent_key_images_list: fees.map(() => ({ key_images: [hex('e')] })),
      },
    });
    expect(compareAnswers(split([1_239_160, 1_239_160]), split([1_857_960, 1_239_160]), followed)).toEqual([
      { path: 'result.fee_list[0]', kind: 'value', a: '1239160', b: '1857960' },
    ]);
    // A listed entry may be the testnet's own funding, made before the steps with no replay: its fee keeps the
    // tolerance of a coin (2491840: one input and seven outputs; 3110640: two).
    const entry = (fee: number): unknown => ({ result: { in: [{ txid: hex('1'), fee, amount: 200_000_001 }] } });
    expect(compareAnswers(entry(2_491_840), entry(3_110_640), followed)).toEqual([]);
    // Told which transactions the steps built, a funding tx is its sender's: any input count (seed 10333: 41476240
    // on the simulator, 11773840 on v1.1.3c, the testnet's main wallets holding other outputs), only a zero fee shows.
    const none = { a: new Set<string>(), b: new Set<string>() };
    expect(compareAnswers(entry(41_476_240), entry(11_773_840), { ...followed, built: none })).toEqual([]);
    expect(compareAnswers(entry(0), entry(11_773_840), { ...followed, built: none })).toMatchObject([
      { path: 'result.in[0].fee', rule: 'fee' },
    ]);
    // One the steps built keeps the coin's factor of 2.
    const ours = { a: new Set([hex('1')]), b: new Set([hex('1')]) };
    expect(compareAnswers(entry(41_476_240), entry(11_773_840), { ...followed, built: ours })).toMatchObject([
      { path: 'result.in[0].fee', rule: 'fee' },
    ]);
    expect(builtTxids([split([1, 2]), tx(1, 1, 1), entry(5), undefined])).toEqual(new Set([hex('2'), hex('1')]));
  });

  it('an unlock_time (a height, not a time) and a blocks_to_unlock count compare exactly', () => {
    const out = compareAnswers(
      { result: { unlock_time: 0, blocks_to_unlock: 9 } },
      { result: { unlock_time: 1300, blocks_to_unlock: 10 } },
    );
    expect(out.map((d) => [d.path, d.kind])).toEqual([
      ['result.unlock_time', 'format'],
      ['result.blocks_to_unlock', 'value'],
    ]);
  });
});

describe('the rule table', () => {
  const rule = (path: (string | number)[], v: unknown): string | undefined =>
    classify(path, path.join('.'), v, v)?.name;

  it('classifies by key name, by path and by value shape; anything else is compared exactly', () => {
    expect(rule(['result', 'tx_hash_list', 0], hex('1'))).toBe('hash or key');
    expect(rule(['result', 'spent_key_images', 'key_images', 3], hex('1'))).toBe('hash or key');
    expect(rule(['result', 'transfers', 0, 'timestamp'], 1)).toBe('timestamp');
    expect(rule(['result', 'start_time'], 1)).toBe('timestamp');
    expect(rule(['result', 'block_header', 'block_weight'], 1)).toBe('size');
    expect(rule(['result', 'transfers', 0, 'global_index'], 1298)).toBe('output position');
    expect(rule(['result', 'txs', 0, 'asset_type_output_indices', 0], 1189)).toBe('output position');
    expect(rule(['result', 'window'], 1214)).toBe('vote window');
    expect(rule(['result', 'free_space'], 1)).toBe('machine-dependent');
    expect(rule(['result', 'weight_list', 0], 8175)).toBe('size');
    expect(rule(['result', 'weight'], 2383)).toBe('size');
    expect(rule(['id'], '0')).toBe('JSON-RPC id');
    expect(rule(['result', 'sha256'], hex('c'))).toBe('64-hex hash');
    expect(rule(['result', 'sal_token', 'url'], 'http://127.0.0.1:1/x')).toBe('URL');
    for (const [path, v] of [
      [['result', 'balance'], 5],
      [['result', 'blocks_to_unlock'], 9],
      [['error', 'message'], 'x'],
      [['result', 'tokens', 0], 'salABCD'],
      [['result', 'time_to_unlock'], 0],
      [['result', 'block_header', 'depth'], 3],
      [['result', 'height'], 1201],
      [['result', 'sal_token', 'size'], 170],
    ] as const) {
      expect(rule([...path], v)).toBeUndefined();
    }
  });

  it('tells address kinds from their prefix and length', () => {
    expect(addressKind(main.carrot.address)).toBe('salvium testnet carrot standard');
    expect(addressKind(main.cn.address)).toBe('salvium testnet cn standard');
    expect(addressKind('SC1Tnot-an-address')).toBeUndefined();
    expect(addressKind('x'.repeat(99))).toBeUndefined();
  });

  it('shapes: hashes by case and length, blobs by case only, URLs without their port, timestamps by range', () => {
    expect(opaqueShape(hex('a'))).toBe('lowercase hex, 64 chars');
    expect(opaqueShape('ab'.repeat(500))).toBe('lowercase hex');
    expect(opaqueShape('')).toBe('empty');
    expect(opaqueShape('http://127.0.0.1:4000/a.json')).toBe(opaqueShape('http://127.0.0.1:5123/b.json'));
    expect(opaqueShape('127.0.0.1:4000')).toBe('127.0.0.1:<port>');
    expect(shapeOf('timestamp', 1_795_447_855)).toBe(shapeOf('timestamp', 1_795_447_999n));
    expect(shapeOf('timestamp', 1_795_447_855_000)).toBe('a time in milliseconds since 1970');
    expect(shapeOf('timestamp', 0)).toBe('0');
    expect(shapeOf('count', 1212)).toBe(shapeOf('count', 1214));
    expect(near(1520, 1566)).toBe(true);
    expect(near(1520, 1568)).toBe(false);
    expect(shapeOf('count', -1)).not.toBe(shapeOf('count', 1));
  });
});

describe('lists the real programs fill in no fixed order', () => {
  const ins = (...e: [number, number][]): unknown => ({
    result: { in: e.map(([height, amount]) => ({ height, amount, asset_type: 'SAL1', txid: hex('5') })) },
  });

  it("get_transfers' in: entries of the same height in any order (seen [3,2,1] then [1,2,3] on real), heights in order", () => {
    expect(
      compareAnswers(ins([1300, 3], [1300, 2], [1300, 1], [1290, 9]), ins([1300, 1], [1300, 2], [1300, 3], [1290, 9])),
    ).toEqual([]);
    // Different amounts at one height still diverge (compared sorted), and the order of heights still counts.
    expect(compareAnswers(ins([1300, 3], [1300, 2]), ins([1300, 1], [1300, 2]))).toMatchObject([
      { path: 'result.in[0].amount', kind: 'value', a: '2', b: '1' },
      { path: 'result.in[1].amount', kind: 'value', a: '3', b: '2' },
    ]);
    expect(compareAnswers(ins([1300, 1], [1290, 1]), ins([1290, 1], [1300, 1]))).toHaveLength(2);
  });

  it('amounts_by_dest (and each of amounts_by_dest_list) in any order; other lists of amounts in order', () => {
    const t = (amounts: number[]): unknown => ({
      result: { amounts_by_dest: { amounts }, amounts_by_dest_list: [{ amounts }], amount_list: amounts },
    });
    expect(compareAnswers(t([3, 2, 1]), t([1, 2, 3]))).toMatchObject([
      { path: 'result.amount_list[0]', kind: 'value' },
      { path: 'result.amount_list[2]', kind: 'value' },
    ]);
    const only = (amounts: number[]): unknown => ({ result: { amounts_by_dest: { amounts } } });
    expect(compareAnswers(only([3, 2, 1]), only([1, 2, 3]))).toEqual([]);
    expect(compareAnswers(only([3, 2, 1]), only([1, 2, 4]))).toMatchObject([
      { path: 'result.amounts_by_dest.amounts[2]', kind: 'value', a: '3', b: '4' },
    ]);
  });

  it("a transfer entry's amounts (a tx's outputs to one address) in any order; a list of amounts elsewhere in order", () => {
    const entry = (amounts: number[]): unknown => ({ result: { in: [{ txid: hex('5'), height: 9, amounts }] } });
    expect(compareAnswers(entry([0, 100]), entry([100, 0]))).toEqual([]);
    expect(compareAnswers(entry([0, 100]), entry([100, 1]))).toMatchObject([{ a: '0', b: '1' }]);
    const byTxid = (amounts: number[]): unknown => ({ result: { transfer: { amounts }, transfers: [{ amounts }] } });
    expect(compareAnswers(byTxid([0, 100]), byTxid([100, 0]))).toEqual([]);
    const elsewhere = (amounts: number[]): unknown => ({ result: { distribution: { amounts } } });
    expect(compareAnswers(elsewhere([0, 100]), elsewhere([100, 0]))).toHaveLength(2);
  });

  it("a transfer entry's destinations come in any order (the real wallet lists them as it shuffled them)", () => {
    const entry = (amounts: number[]): unknown => ({
      result: { transfer: { destinations: amounts.map((amount) => ({ address: 'x', amount })) } },
    });
    expect(compareAnswers(entry([5, 2]), entry([2, 5]))).toEqual([]);
    expect(compareAnswers(entry([5, 2]), entry([2, 6]))).toHaveLength(1);
  });

  it("get_transfer_by_txid's transfers in any order (a tx paying two of the wallet's addresses, seen both ways on real); transfer as the first of its own list", () => {
    const byTxid = (...minors: number[]): Record<string, unknown> => {
      const transfers = minors.map((minor) => ({
        type: 'pool',
        txid: hex('5'),
        amount: minor === 0 ? 50_000_000 : 100_000_000,
        subaddr_index: { major: 0, minor },
      }));
      return { result: { transfer: transfers[0], transfers } };
    };
    expect(compareAnswers(byTxid(0, 1), byTxid(1, 0))).toEqual([]);
    // A different entry still diverges, and so does a transfer that is not the first of its side's list.
    expect(compareAnswers(byTxid(0, 1), byTxid(1, 2))).not.toEqual([]);
    const notFirst = byTxid(0, 1) as { result: { transfer: unknown; transfers: unknown[] } };
    notFirst.result.transfer = notFirst.result.transfers[1];
    expect(compareAnswers(notFirst, byTxid(0, 1)).map((d) => d.path)).toEqual([
      'result.transfer.amount',
      'result.transfer.subaddr_index.minor',
    ]);
    // incoming_transfers' transfers (outputs, no type) keep their order.
    const outputs = (...amounts: number[]): unknown => ({
      result: { transfers: amounts.map((amount) => ({ amount, tx_hash: hex('5') })) },
    });
    expect(compareAnswers(outputs(1, 2), outputs(2, 1))).toHaveLength(2);
  });

  it("a block's or a transaction's decoded JSON is compared as parsed, by the same rules; its outputs in any order", () => {
    const block = (nonce: number, amounts: number[], viewTag: string): unknown => ({
      result: {
        json: JSON.stringify({
          major_version: 11,
          nonce,
          prev_id: hex(viewTag[0]!),
          miner_tx: {
            vin: [{ gen: { height: 1201 } }],
            vout: amounts.map((amount, i) => ({
              amount,
              target: {
                carrot_v1: {
                  key: hex(String(i)),
                  asset_type: 'SAL1',
                  view_tag: viewTag,
                  encrypted_janus_anchor: viewTag.repeat(5) + 'ab',
                },
              },
            })),
            extra: [4, 2, nonce % 256],
          },
        }),
      },
    });
    expect(compareAnswers(block(7, [9, 3], 'a1b2c3'), block(8, [3, 9], 'ffeedd'))).toEqual([]);
    expect(compareAnswers(block(7, [9, 3], 'a1b2c3'), block(8, [3, 8], 'ffeedd'))).toMatchObject([
      { path: 'result.json.miner_tx.vout[1].amount', kind: 'value', a: '9', b: '8' },
    ]);
    // Text that is not JSON is compared as text.
    expect(compareAnswers({ result: { json: 'x' } }, { result: { json: 'y' } })).toHaveLength(1);
  });
});

describe("what the daemon's lookups answer", () => {
  it('serialized data of any length (a short protocol tx blob against a long one), pool sizes within 3%, the oldest pool tx by its time', () => {
    const tx = (hex: string, size: number, oldest: number): unknown => ({
      result: { txs: [{ pruned_as_hex: hex }], pool_stats: { bytes_total: size, oldest }, blob_size: size },
    });
    expect(
      compareAnswers(tx('053c01ffb009000202000200', 8264, 1_795_656_731), tx('7b22'.repeat(90), 8245, 1_795_656_626)),
    ).toEqual([]);
    expect(compareAnswers(tx('053c01ff', 8264, 1), tx('053c01ff', 7000, 1))).toMatchObject([
      { path: 'result.pool_stats.bytes_total', kind: 'value' },
      { path: 'result.blob_size', kind: 'value' },
    ]);
  });
});
