// Conformance: every request recorded from the real programs (fixtures/transcripts/salvium-v1.1.3c) is
// replayed against the simulator in the matching chain state, and the answer must conform: same
// HTTP status, same error code and message, same response shape (see conform.ts). The story below
// rebuilds the recorded session: a wallet that mined every block, token TST1 confirmed, RICH
// pending, then the recorded requests in order, with blocks mined where the recording mined them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputCounts } from '../../harness/diff/replay.js';
import { SIM_REPLAY_HEADER } from '../../harness/sim/index.js';
import { conform } from './conform.js';
import {
  cleanup,
  generateWallet,
  height,
  mineAcrossCarrot,
  mineTo,
  post,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type CliWallet,
  type SimDaemon,
  type SimWalletRpc,
} from '../helpers/sim.js';
import { TRANSCRIPTS, transcript, transcriptText } from './transcripts.js';

const REAL_CN = 'SaLvTyKyQDRGTjuP4tinmWCn3hm9j3qcsSXWQfXvPb3ncGTBo2tjW3Ggz9eoTAEytqHEDC5Z3AG1WXSUFyfDQPpYSJ3DQmeAnx33B';
const REAL_CARROT =
  'SC1TosF5e1GR9x5qTyaxvwdyvaGaTricz3ucbnq3pSjx6gVbvXeNJSoivw6LR89n8WcPUd8XfbzNJZ25hZUSoYLyb5VwJxTZmXQ';

let dir: string;
let daemon: SimDaemon;
let wallet: SimWalletRpc;
let w: CliWallet;
const covered = new Set<string>();

/**
 * Replay a recorded request (with the recorded wallet's addresses replaced by ours) and check conformance. A transfer
 * is sent with the recorded input counts, so the simulator takes the real wallet's branch where it flipped a coin.
 */
async function replay(name: string): Promise<any> {
  const t = transcript(name);
  covered.add(name);
  const port = t.server === 'daemon' ? daemon.port : wallet.port;
  const body =
    typeof t.request === 'string'
      ? t.request
      : JSON.stringify(t.request).replaceAll(REAL_CN, w.cn).replaceAll(REAL_CARROT, w.carrot);
  const inputs = inputCounts(t.response);
  const res = await post(port, t.path, body, inputs ? { [SIM_REPLAY_HEADER]: JSON.stringify({ inputs }) } : {});
  expect(res.status, `${name}: HTTP status`).toBe(t.http_status);
  if (t.response === '') {
    expect(res.text, `${name}: body`).toBe('');
    return undefined;
  }
  if (t.response.error) {
    expect(res.json?.error, `${name}: error`).toEqual(t.response.error);
    expect(res.json.id, `${name}: id`).toEqual(t.response.id);
    return res.json;
  }
  const mismatches = conform(t.response, res.json);
  expect(mismatches, `${name} does not conform:\n${mismatches.join('\n')}\nactual: ${res.text}`).toEqual([]);
  return res.json;
}

const mineBlocks = async (n: number): Promise<void> => {
  await mineTo(daemon.port, w.carrot, (await height(daemon.port)) + n);
};
const walletSynced = async (): Promise<void> => {
  await rpc(wallet.port, 'refresh');
};

beforeAll(async () => {
  dir = tempDir('saltnet-conformance-');
  daemon = await startDaemon(dir, { difficulty: 1 });
  w = await generateWallet(join(dir, 'w'), 'pw', daemon.port);
  await mineAcrossCarrot(daemon.port, w, 1339);
  // The recording's wallet did not see the supplies its create_token calls minted (43 lists only SAL
  // and SAL1); the reference withdraws that as an unusual wallet state, and the real programs since
  // showed the creator its supply (harness/sim/README.md). Replay it with the simulator's switch off.
  const start = (): Promise<SimWalletRpc> =>
    startWalletRpc(
      ['--wallet-file', w.path, '--password', 'pw', '--log-file', join(dir, 'wallet-rpc.log')],
      daemon.port,
      { env: { SALTNET_SIM_TOKEN_MINT_VISIBLE: '0' } },
    );
  wallet = await start();
  await walletSynced();
  // The recording's wallet had been opened again after it scanned the chain: a freshly scanning
  // wallet lists SAL1 before SAL (both land in one bucket of its unordered_map), a reopened one SAL
  // before SAL1 as transcript 43 does (wallet/asset-order.ts).
  await rpc(wallet.port, 'stop_wallet');
  await wallet.proc;
  wallet = await start();
  // Refreshes only when a transcript asks (38 expects the refresh after a mined block to find the money, which an
  // automatic refresh in between would have found first).
  await rpc(wallet.port, 'auto_refresh', { enable: false });
  await walletSynced();
  // TST1, created and confirmed well before the recording, as on the recorded chain.
  const tst = await rpc(wallet.port, 'create_token', { ticker: 'TST1', supply: 1000, name: 'Test one' });
  expect(tst.result?.tx_hash_list, JSON.stringify(tst)).toHaveLength(1);
  // The recording was made around height 1367; stay well below 1400 (HF13) whatever the mining overshoot.
  await mineTo(daemon.port, w.carrot, Math.max(1345, (await height(daemon.port)) + 1));
  await walletSynced();
  // RICH is pending when the recording starts (transcript 01 shows tx_pool_size 1).
  const rich = await rpc(wallet.port, 'create_token', {
    ticker: 'RICH',
    supply: 500,
    name: 'Rich',
    url: 'http://127.0.0.1:8000/rich.json',
    hash: '0'.repeat(63) + '1',
    size: 170,
  });
  expect(rich.result?.tx_hash_list, JSON.stringify(rich)).toHaveLength(1);
}, 180_000);

afterAll(async () => {
  await stopAll();
  if (dir) cleanup(dir);
});

describe('simulator conformance with the recorded real programs', () => {
  it('daemon endpoints (01–11)', async () => {
    const info = await replay('01-daemon-get_info.json');
    expect(info.tx_pool_size).toBe(1);
    expect(info.synchronized).toBe(true);
    await replay('02-daemon-get_height.json');
    const idle = await replay('03-daemon-mining_status-idle.json');
    expect(idle).toEqual(transcript('03-daemon-mining_status-idle.json').response);
    for (const n of [
      '04-daemon-start_mining-cn-after-hf10.json',
      '05-daemon-start_mining-bad-address.json',
      '06-daemon-stop_mining-not-mining.json',
    ]) {
      expect(await replay(n)).toEqual(transcript(n).response);
    }
    const hf = await replay('07-daemon-hard_fork_info.json');
    expect(hf.result).toMatchObject({ version: 12, voting: 13, earliest_height: 1400, state: 2, enabled: false });
    await replay('08-daemon-generateblocks-testnet.json');
    const toks = await replay('09-daemon-get_tokens.json');
    expect(toks.result.tokens).toEqual(['salTST1']);
    expect(await replay('10-daemon-get_token_info-unknown.json')).toEqual(
      transcript('10-daemon-get_token_info-unknown.json').response,
    );
    await replay('11-daemon-unknown-path.json');
  });

  it('wallet basics and balance errors (12–20)', async () => {
    expect(await replay('12-wallet-get_version.json')).toEqual(transcript('12-wallet-get_version.json').response);
    const addr = await replay('13-wallet-get_address.json');
    expect(addr.result.address).toBe(w.carrot);
    expect(addr.result.addresses[0]).toMatchObject({ address_cn: w.cn, address_carrot: w.carrot, used: true });
    const h = await replay('14-wallet-get_height.json');
    expect(h.result.height).toBe(await height(daemon.port));
    await replay('15-wallet-refresh.json');
    const bal = await replay('16-wallet-get_balance-SAL1.json');
    // The pending RICH creation's change counts in the balance but not in the unlocked balance.
    expect(bal.result.balances[0].balance).toBeGreaterThan(bal.result.balances[0].unlocked_balance);
    const bal2 = await replay('17-wallet-getbalance-no-params.json');
    expect(bal2.result.balances[0].asset_type).toBe('SAL1');
    await replay('18-wallet-get_balance-unknown-asset.json');
    await replay('19-wallet-get_balance-bad-token-name.json');
    await replay('20-wallet-get_tokens-empty-or-list.json');
  });

  it('create_token rejections in the real order (21–30)', async () => {
    for (const n of [
      '21-wallet-create_token-3-chars.json',
      '22-wallet-create_token-5-chars.json',
      '23-wallet-create_token-empty.json',
      '24-wallet-create_token-symbol.json',
      '25-wallet-create_token-sal-prefix.json',
      '26-wallet-create_token-burn.json',
      '27-wallet-create_token-zero-supply.json',
      '28-wallet-create_token-bad-hash.json',
      '29-wallet-create_token-supply-over-wallet-limit.json',
      '30-wallet-create_token-bad-metadata-hex.json',
    ])
      await replay(n);
  });

  it('token creation, visibility after one block, duplicates (31–42)', async () => {
    const low = await replay('31-wallet-create_token-lowercase-ok.json');
    expect(low.result.fee_list).toEqual(
      transcript('31-wallet-create_token-lowercase-ok.json').response.result.fee_list,
    );
    expect(low.result.spent_key_images_list[0].key_images).toHaveLength(16);
    const before = await replay('32-wallet-get_tokens-before-confirmation.json');
    expect(before.result.tokens).toEqual(['salTST1']);
    const pending = await replay('33-wallet-get_transfers-pool.json');
    expect(pending.result.pending).toHaveLength(2);
    expect(pending.result.pending.every((e: any) => e.fee === 100010521160 && e.amount === 0)).toBe(true);
    await mineBlocks(1);
    const after = await replay('34-wallet-get_tokens-after-one-block.json');
    expect(after.result.tokens).toEqual(['salLOW1', 'salRICH', 'salTST1']);
    await replay('35-wallet-create_token-duplicate.json');
    await replay('36-wallet-create_token-rich.json');
    const hexy = await replay('37-wallet-create_token-metadata-hex.json');
    expect(hexy.result.fee_list).toEqual([10521160]);
    await mineBlocks(1);
    const r = await replay('38-wallet-refresh-2.json');
    expect(r.result.received_money).toBe(true);
    expect((await replay('39-wallet-get_tokens-all.json')).result.tokens).toEqual([
      'salHEXY',
      'salLOW1',
      'salRICH',
      'salTST1',
    ]);
    expect(await replay('40-wallet-get_tokens-regex.json')).toEqual(
      transcript('40-wallet-get_tokens-regex.json').response,
    );
    expect(await replay('41-wallet-get_token_info.json')).toEqual(transcript('41-wallet-get_token_info.json').response);
    expect(await replay('42-daemon-get_token_info.json')).toEqual(transcript('42-daemon-get_token_info.json').response);
    const hexInfo = await rpc(wallet.port, 'get_token_info', { asset_type: 'salHEXY' });
    expect(hexInfo.result.sal_token).toEqual({
      name: 'Hexy',
      size: 2,
      supply: 77,
      url: 'http://127.0.0.1:8000/hexy.json',
    });
  });

  it('balances, transfers and their errors (43–52)', async () => {
    const all = await replay('43-wallet-get_balance-all_assets.json');
    expect(all.result.balances.map((b: any) => b.asset_type)).toEqual(['SAL', 'SAL1']);
    for (const n of [
      '44-wallet-transfer-missing-tx_type.json',
      '45-wallet-transfer-cn-address.json',
      '46-wallet-transfer-no-destinations.json',
      '47-wallet-transfer-bad-address.json',
    ])
      await replay(n);
    const t = await replay('48-wallet-transfer-ok.json');
    // The transcript shows tx_key zeros; salvium-wallet-rpc v1.1.3c asked again (2026-11-26: a SAL1 transfer from
    // `main` to a Carrot address with get_tx_key) answers the tx's secret key, which get_tx_key then returns too.
    expect({ fee: t.result.fee, weight: t.result.weight, tx_key: t.result.tx_key }).toEqual({
      fee: 1239160,
      weight: 2384,
      tx_key: expect.stringMatching(/^(?!0{64})[0-9a-f]{64}$/),
    });
    const s = await replay('49-wallet-transfer_split-ok.json');
    expect({ fee: s.result.fee_list, weight: s.result.weight_list }).toEqual({ fee: [1857960], weight: [3561] });
    const tr = await replay('50-wallet-get_transfers-pending-pool.json');
    expect(tr.result.out).toHaveLength(4);
    expect(tr.result.pending).toHaveLength(2);
    const shown = tr.result.pending[0].destinations[0].address as string;
    // The real wallet records a Carrot destination with the same spend key but another view key.
    expect(shown).not.toBe(w.carrot);
    expect(shown.slice(0, 44)).toBe(w.carrot.slice(0, 44));
    await replay('51-wallet-sweep_single-bad-key-image.json');
    await replay('52-wallet-sweep_all-zero-outputs.json');
  });

  it('transfers after mining, empty filters, protocol errors (53–59)', async () => {
    await mineBlocks(3);
    const r = await replay('53-wallet-refresh-3.json');
    // true as recorded, unless the wallet's own 20 s refresh found the new blocks first (on loaded
    // CI cores it did): either way the wallet is at the daemon's height afterwards.
    expect(typeof r.result.received_money).toBe('boolean');
    expect((await rpc(wallet.port, 'get_height')).result.height).toBe(await height(daemon.port));
    const outs = await replay('54-wallet-get_transfers-out.json');
    expect(outs.result.out).toHaveLength(6);
    expect(outs.result.out.filter((e: any) => e.destinations).map((e: any) => e.amount)).toEqual([0, 0]);
    expect(await replay('55-wallet-get_transfers-empty-request.json')).toEqual(
      transcript('55-wallet-get_transfers-empty-request.json').response,
    );
    for (const n of [
      '56-wallet-unknown-method.json',
      '57-wallet-parse-error.json',
      '58-wallet-empty-object.json',
      '59-wallet-unknown-path.json',
    ])
      await replay(n);
  });

  it('stopping the wallet and the daemon (60–61), with the real shutdown lines', async () => {
    await replay('60-wallet-stop_wallet.json');
    expect((await wallet.proc).exitCode).toBe(0);
    for (const line of ['W Stopped wallet RPC server', 'W Saving wallet...', 'W Successfully saved'])
      expect(wallet.output()).toContain(line);
    await replay('61-daemon-stop_daemon.json');
    expect((await daemon.proc).exitCode).toBe(0);
    const tail = transcript('61-daemon-stop_daemon.json');
    expect(tail.response.status).toBe('OK');
  });

  it('startup output follows the recorded daemon and wallet RPC stdout', () => {
    const strip = (text: string): string[] =>
      text
        .split('\n')
        .map((l) => l.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\t/, ''))
        .filter((l) => l.trim() !== '');
    const fixedDaemonLines = strip(transcriptText('daemon-stdout.txt')).filter(
      (l) =>
        !/rotating drive|Found block|Miner thread|Dandelion|no available connections|Loading blockchain|Binding on|initialized OK on port|Salvium 'One'/.test(
          l,
        ),
    );
    const ours = strip(daemon.output());
    let at = 0;
    for (const line of fixedDaemonLines) {
      const found = ours.indexOf(line, at);
      expect(found, `daemon line missing or out of order: ${line}`).toBeGreaterThanOrEqual(0);
      at = found;
    }
    expect(ours.some((l) => /^I Loading blockchain from folder .*\/testnet\/19\/lmdb \.\.\.$/.test(l))).toBe(true);
    const walletFixed = [
      'This is the RPC Salvium wallet. It needs to connect to a Salvium daemon to work correctly.',
      'W Loading wallet...',
      'W Loaded wallet keys file, with public addresses: ',
      'W Starting wallet RPC server',
      'W Stopped wallet RPC server',
      'W Saving wallet...',
      'W Successfully saved',
    ];
    const wOurs = strip(wallet.output());
    at = 0;
    for (const line of walletFixed) {
      const found = wOurs.indexOf(line, at);
      expect(found, `wallet RPC line missing or out of order: ${line}`).toBeGreaterThanOrEqual(0);
      at = found;
    }
    expect(wOurs).toContain(`W       CN : ${w.cn}`);
    expect(wOurs).toContain(`W   Carrot : ${w.carrot}`);
  });

  it('covers every recorded transcript', () => {
    const all = readdirSync(TRANSCRIPTS).filter((f) => f.endsWith('.json'));
    expect(all.filter((f) => !covered.has(f))).toEqual([]);
  });
});
