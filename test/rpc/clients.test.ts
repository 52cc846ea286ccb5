import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDaemonClient } from '../../harness/rpc/daemon.js';
import { ConnectionError, HttpStatusError, RpcError } from '../../harness/rpc/errors.js';
import { parseJson, stringifyJson } from '../../harness/rpc/json.js';
import { createWalletClient } from '../../harness/rpc/wallet.js';
import {
  cleanup,
  freePort,
  generateWallet,
  mineTo,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type SimDaemon,
} from '../helpers/sim.js';

describe('RPC JSON', () => {
  it('keeps integers beyond 2^53 exact and small ones as numbers', () => {
    const v = parseJson('{"big": 18440000000000000000, "small": 42, "neg": -7, "f": 1.5}') as Record<string, unknown>;
    expect(v).toEqual({ big: 18440000000000000000n, small: 42, neg: -7, f: 1.5 });
    expect(stringifyJson({ a: 18440000000000000001n })).toBe('{"a":18440000000000000001}');
  });
});

describe('daemon and wallet clients against the simulator', () => {
  let dir: string;
  let daemon: SimDaemon;
  let walletFile: string;
  let cn: string;
  beforeAll(async () => {
    dir = tempDir('saltnet-rpc-');
    daemon = await startDaemon(dir, { env: { SALTNET_SIM_MIN_BLOCK_MS: '0' } });
    const w = await generateWallet(join(dir, 'w'), 'pw', daemon.port);
    walletFile = w.path;
    cn = w.cn;
  }, 60_000);
  afterAll(async () => {
    await stopAll();
    cleanup(dir);
  });

  it('answers daemon calls and raises RpcError with code, message and method', async () => {
    const d = createDaemonClient(`http://127.0.0.1:${daemon.port}`);
    expect((await d.getInfo()).status).toBe('OK');
    expect(await d.stopMining()).toBe('Mining never started');
    const err = await d.call('get_block_header_by_height', { height: 999999 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: -2, method: 'get_block_header_by_height' });
    await d.close();
  });

  it('reports 0 for an asset a fresh wallet never received, and the unlocked balance after mining', async () => {
    const rpc = await startWalletRpc(
      ['--wallet-file', walletFile, '--password', 'pw', '--log-file', join(dir, 'w1.log')],
      daemon.port,
    );
    const w = createWalletClient(`http://127.0.0.1:${rpc.port}`);
    expect(await w.balance()).toEqual({ balance: 0n, unlocked: 0n, blocksToUnlock: 0 });
    await mineTo(daemon.port, cn, 900);
    await w.refresh();
    const sal = await w.balance('SAL'); // coinbase below 815: all unlocked by now
    expect(sal.unlocked).toBe(sal.balance);
    expect(sal.unlocked).toBeGreaterThan(0n);
    const sal1 = await w.balance(); // SAL1 from 815: the last 60 blocks are still locked
    expect(sal1.balance).toBeGreaterThan(sal1.unlocked);
    expect(sal1.blocksToUnlock).toBeGreaterThan(0);
    await w.close();
    await rpc.stop();
  });

  it('logs in with HTTP Digest on one connection, call after call, and names a wrong login', async () => {
    const rpc = await startWalletRpc(
      [
        '--wallet-file',
        walletFile,
        '--password',
        'pw',
        '--rpc-login',
        'alice:s3cret',
        '--log-file',
        join(dir, 'w2.log'),
      ],
      daemon.port,
      { login: true },
    );
    const w = createWalletClient(`http://127.0.0.1:${rpc.port}`, { auth: { username: 'alice', password: 's3cret' } });
    for (let i = 0; i < 5; i++) expect(await w.version()).toBe(65564);
    await w.close();
    const bad = createWalletClient(`http://127.0.0.1:${rpc.port}`, { auth: { username: 'alice', password: 'nope' } });
    const err = await bad.version().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(String(err)).toMatch(/HTTP 401 \(wrong or missing RPC login\)/);
    await bad.close();
    await rpc.stop();
  });

  it('raises ConnectionError naming the URL when nothing listens', async () => {
    const port = await freePort();
    const d = createDaemonClient(`http://127.0.0.1:${port}`, { timeoutMs: 2000 });
    const err = await d.getInfo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(String(err)).toContain(`127.0.0.1:${port}/get_info`);
    await d.close();
  });
});

describe('Monero-shaped get_balance', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const id = (JSON.parse(body) as { id: string }).id;
        res.setHeader('content-type', 'application/json');
        res.end(
          `{"id":"${id}","jsonrpc":"2.0","result":{"balance":35184372088832123,"unlocked_balance":1000000000000,"blocks_to_unlock":59,"multisig_import_needed":false}}`,
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads the flat balance, exactly, whatever asset is asked', async () => {
    const w = createWalletClient(`http://127.0.0.1:${port}`);
    expect(await w.balance()).toEqual({ balance: 35184372088832123n, unlocked: 1000000000000n, blocksToUnlock: 59 });
    await w.close();
  });
});
