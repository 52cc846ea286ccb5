// Blocks and transactions decoded to JSON as the real daemon writes them (json_archive), and the raw
// bytes some answers hold. Recorded from salviumd v1.1.3c: the blocks' `json` and the coinbase txs'
// `as_json` in fixtures/salvium-v1.1.3c/daemon-answers.json, a SAL1 transfer's `as_json` (2 inputs, 2
// outputs, fee 1857960) in fixtures/salvium-v1.1.3c/transfer-as-json.txt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../harness/diff/compare.js';
import { TxType } from '../../harness/sim/chain/constants.js';
import type { Tx } from '../../harness/sim/chain/types.js';
import { archiveJson, unsized } from '../../harness/sim/daemon/archive-json.js';
import { txJson } from '../../harness/sim/daemon/block-json.js';
import { Bytes, toEpeeJson, toEpeeJsonBody } from '../../harness/sim/http/json-print.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';

const FIXTURES = join(fileURLToPath(new URL('../..', import.meta.url)), 'fixtures', 'salvium-v1.1.3c');
const answers = (
  JSON.parse(readFileSync(join(FIXTURES, 'daemon-answers.json'), 'utf8')) as {
    answers: { name: string; answer: { result?: Record<string, unknown> } & Record<string, unknown> }[];
  }
).answers;
const transfer = readFileSync(join(FIXTURES, 'transfer-as-json.txt'), 'utf8');

/** The recorded JSON texts: every get_block `json`, every /get_transactions `as_json`. */
const texts = answers.flatMap((a) => {
  const block = a.answer.result?.json;
  const txs = (a.answer.txs as { as_json?: string }[] | undefined) ?? [];
  return [
    ...(typeof block === 'string' ? [[a.name, block]] : []),
    ...txs.map((t, i) => [`${a.name} tx ${i}`, t.as_json]),
  ];
}) as [string, string][];

/** RingCT's lists, which json_archive opens without a size. */
const UNSIZED = new Set(['ecdhInfo', 'outPk', 'TCLSAGs', 'sx', 'sy', 'pseudoOuts']);
function marked(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return UNSIZED.has(key) ? unsized(v.map((x) => marked(x))) : v.map((x) => marked(x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marked(x, k)]));
  return v;
}

describe('json_archive text', () => {
  it('reproduces every recorded block and coinbase tx byte for byte', () => {
    expect(texts.length).toBeGreaterThanOrEqual(9);
    for (const [name, text] of texts) expect(archiveJson(JSON.parse(text) as Record<string, unknown>), name).toBe(text);
  });

  it('reproduces a recorded transfer, its RingCT lists closed on the same line (opened without a size)', () => {
    expect(archiveJson(marked(JSON.parse(transfer)) as Record<string, unknown>)).toBe(transfer);
    expect(archiveJson({ a: [], b: unsized([]), c: [1], d: unsized([1]) })).toBe(
      '{\n  "a": [ ], \n  "b": [ ], \n  "c": [ 1\n  ], \n  "d": [ 1]\n}',
    );
  });
});

describe("a transaction's as_json", () => {
  it("has the recorded transfer's shape: the same keys, versions, list lengths and fee; random parts of the same form", () => {
    const a = walletFromSeed(new Uint8Array(32).fill(3), 'testnet').carrot.address;
    const tx: Tx = {
      txid: 'ab'.repeat(32),
      type: TxType.TRANSFER,
      inputs: [0, 1].map((i) => ({ outputId: `x:${i}`, keyImage: `${i}`.repeat(64), amount: 1n, asset: 'SAL1' })),
      outputs: [0, 1].map((i) => ({ id: `ab:${i}`, address: a, amount: 1n, asset: 'SAL1' })),
      fee: 1857960n,
      burnt: 0n,
      sourceAsset: 'SAL1',
      destAsset: 'SAL1',
      paymentId: '0'.repeat(16),
      weight: 3560,
      timestamp: 0,
      unlockTime: 0,
    };
    const ring = { ring: (): number => 16 };
    const sim = { result: { as_json: txJson(tx, 1201, ring) } };
    expect(compareAnswers(sim, { result: { as_json: transfer } })).toEqual([]);
    // Pruned (prune: true): without the RingCT proofs.
    expect(JSON.parse(txJson(tx, 1201, ring, false))).not.toHaveProperty('rctsig_prunable');
    // Two outputs share one public key (tag 1); from HF10 a tx of more has one per output (tag 4): 141 bytes of
    // tx_extra for four outputs on v1.1.3c, 44 for two.
    const extra = (t: Tx, h: number): number[] => (JSON.parse(txJson(t, h, ring)) as { extra: number[] }).extra;
    expect(extra(tx, 1201)).toHaveLength(44);
    expect(extra(tx, 1201)[0]).toBe(1);
    const four = {
      ...tx,
      outputs: [0, 1, 2, 3].map((i) => ({ id: `ab:${i}`, address: a, amount: 1n, asset: 'SAL1' })),
    };
    expect(extra(four, 1201)).toHaveLength(141);
    expect(extra(four, 1201).slice(0, 2)).toEqual([4, 4]);
    expect(extra(four, 1000)).toHaveLength(44);
  });
});

describe('raw bytes in an answer (epee blob fields)', () => {
  it('are written as the bytes themselves, escaped as epee escapes text', () => {
    const body = toEpeeJsonBody({
      backlog: new Bytes(Uint8Array.from([0xe8, 0x0d, 0x00, 0x22, 0x5c, 0x2f, 0x0a, 0xff])),
    });
    expect(Buffer.isBuffer(body)).toBe(true);
    const text = Buffer.from(body as Buffer).toString('latin1');
    expect(text).toBe('{\r\n  "backlog": "\u00e8\\r\u0000\\"\\\\\\/\\n\u00ff"\r\n}');
  });

  it('an answer without them stays text', () => {
    expect(toEpeeJsonBody({ a: 'é' })).toBe(toEpeeJson({ a: 'é' }));
  });
});
