// Which peers the simulated salviumd dials (without --offline), as salviumd's connections_maker does: every
// --add-exclusive-node, and then no other; without any, every --add-priority-node and --add-peer; and a node that fell
// behind across a slow link catches up. Each daemon runs as a real process started from dist/ and is killed in
// afterEach.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LinkProxy } from '../../harness/network/proxy.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import { cleanup, freePort, post, rpc, spawnSim, stopAll, tempDir, waitFor } from '../helpers/sim.js';

let root: string;
beforeAll(() => {
  root = tempDir('saltnet-daemon-peers-');
});
afterEach(stopAll);
afterAll(() => cleanup(root));

interface Node {
  name: string;
  rpcPort: number;
  p2p: string;
}

/** An online daemon (no --offline) on fresh ports, with `peers` (its p2p flags); ready once its RPC answers. */
async function online(name: string, peers: (p2p: number) => string[] = () => []): Promise<Node> {
  const [rpcPort, zmq, p2p] = [await freePort(), await freePort(), await freePort()];
  spawnSim('salviumd', [
    '--testnet',
    '--non-interactive',
    '--data-dir',
    join(root, name),
    '--rpc-bind-ip',
    '127.0.0.1',
    '--rpc-bind-port',
    String(rpcPort),
    '--zmq-rpc-bind-port',
    String(zmq),
    '--p2p-bind-ip',
    '127.0.0.1',
    '--p2p-bind-port',
    String(p2p),
    ...peers(p2p),
  ]);
  await waitFor(`${name} /get_info`, async () => (await rpc(rpcPort, 'get_info'))?.result?.status === 'OK');
  return { name, rpcPort, p2p: `127.0.0.1:${p2p}` };
}

/** Where `n` connected to (its outgoing connections), sorted. */
async function dialled(n: Node): Promise<string[]> {
  const r = await rpc(n.rpcPort, 'get_connections');
  const list = (r?.result?.connections ?? []) as { incoming: boolean; address: string }[];
  return list
    .filter((c) => !c.incoming)
    .map((c) => c.address)
    .sort();
}

describe('the simulated daemon dials the peers of its command line', () => {
  it('every --add-priority-node and --add-peer, each given several times', async () => {
    const [a, b, c, d] = [await online('a'), await online('b'), await online('c'), await online('d')];
    const x = await online('x', () => [
      ...['--add-priority-node', a.p2p, '--add-priority-node', b.p2p],
      ...['--add-peer', c.p2p, '--add-peer', d.p2p],
    ]);
    const want = [a.p2p, b.p2p, c.p2p, d.p2p].sort();
    expect(
      await waitFor('x connected to its four peers', async () => (await dialled(x)).length === 4 && dialled(x)),
    ).toEqual(want);
  });

  it('only the --add-exclusive-nodes when there are any (priority nodes and peers are then ignored)', async () => {
    const [a, b, c] = [await online('e-a'), await online('e-b'), await online('e-c')];
    const x = await online('e-x', () => [
      ...['--add-exclusive-node', a.p2p, '--add-exclusive-node', b.p2p],
      ...['--add-priority-node', c.p2p, '--add-peer', c.p2p],
    ]);
    await waitFor('x connected to both exclusive nodes', async () => (await dialled(x)).length === 2);
    // It dials once a second: two more rounds, and c has still not been dialled.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await dialled(x)).toEqual([a.p2p, b.p2p].sort());
    const cIn = (await rpc(c.rpcPort, 'get_connections'))?.result?.connections ?? [];
    expect(cIn).toEqual([]);
  });
});

describe('a node behind a slow link', () => {
  const height = async (n: Node): Promise<number> => (await rpc(n.rpcPort, 'get_info')).result.height as number;

  it('gets the blocks found while the two hellos crossed the link (nothing was relayed to it then)', async () => {
    const a = await online('slow-a');
    const link = await LinkProxy.start({ target: () => Number(a.p2p.split(':')[1]) });
    try {
      const b = await online('slow-b', () => ['--add-exclusive-node', `127.0.0.1:${link.port}`]);
      const synchronized = async (n: Node): Promise<boolean> =>
        (await rpc(n.rpcPort, 'get_info')).result.synchronized === true;
      await waitFor('a and b synchronized', async () => (await synchronized(a)) && (await synchronized(b)));
      // b reconnects through a link that holds every message 2 s: each node's hello is on its way while a mines.
      link.set({ mode: 'cut' });
      link.set({ mode: 'open', delayMs: 2000 });
      await waitFor('b connected again', async () => link.connections === 1);
      await new Promise((r) => setTimeout(r, 300));
      const miner = walletFromSeed('11'.repeat(32), 'testnet').cn.address;
      expect((await post(a.rpcPort, '/start_mining', { miner_address: miner, threads_count: 1 })).json.status).toBe(
        'OK',
      );
      await waitFor('a mined', async () => (await height(a)) > 1, 3000, 5);
      await post(a.rpcPort, '/stop_mining', {});
      const top = await height(a);
      expect(await height(b)).toBe(1);
      // b's hello reaches a after a's blocks: a answers it with where it stands now, and b asks for those blocks.
      await waitFor("b on a's chain", async () => (await height(b)) === top, 30_000);
    } finally {
      await link.close();
    }
  });
});
