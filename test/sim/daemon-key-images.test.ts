// /is_key_image_spent against what real salviumd v1.1.3c answered on a fresh testnet chain
// (recorded 2026-11-25 with curl; a recording of test/record/client.mjs found the simulator left out
// credits and top_hash). Spent and pooled key images are covered by the recorded scenarios.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, post, startDaemon, stopAll, tempDir, type SimDaemon } from '../helpers/sim.js';

const KI = 'ab'.repeat(32);
const BASE = { credits: 0, top_hash: '', untrusted: false };
/** Real v1.1.3c: request body → answer. */
const REAL: [string, unknown, unknown][] = [
  ['an unspent key image', { key_images: [KI] }, { ...BASE, spent_status: [0], status: 'OK' }],
  ['upper-case hex', { key_images: [KI.toUpperCase()] }, { ...BASE, spent_status: [0], status: 'OK' }],
  ['no key images', { key_images: [] }, { ...BASE, status: 'OK' }],
  ['no key_images field', {}, { ...BASE, status: 'OK' }],
  [
    'one that is not hex, after a good one',
    { key_images: [KI, 'zz'] },
    { ...BASE, status: 'Failed to parse hex representation of key image' },
  ],
  ['33 bytes', { key_images: [`${KI}ab`] }, { ...BASE, status: 'Failed, size of data mismatch' }],
];

let dir: string;
let daemon: SimDaemon;
beforeAll(async () => {
  dir = tempDir('saltnet-key-images-');
  daemon = await startDaemon(dir);
});
afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('/is_key_image_spent', () => {
  it.each(REAL)('%s: the real answer', async (_, body, answer) => {
    expect((await post(daemon.port, '/is_key_image_spent', body)).json).toEqual(answer);
  });
});
