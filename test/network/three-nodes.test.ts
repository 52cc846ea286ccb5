// Three nodes on the simulator: `saltnet up --nodes 3` as a user starts it (every node dials its two peers, so each
// daemon has --add-exclusive-node twice on its command line), and a scenario of `nodes: 3` that cuts one node off
// from the other two, mines on both sides and heals: the side of two, which mined more, wins on all three.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { CLI, startUntilReady, stopStarted, type Started } from '../cli/helpers.js';
import { cleanup, rpc, tempDir, waitFor } from '../helpers/sim.js';

/** Each node's top block (height and hash), from its own RPC. */
async function tops(nodes: { url: string }[]): Promise<{ height: number; hash: string }[]> {
  return Promise.all(
    nodes.map(async (n) => {
      const r = await rpc(Number(new URL(n.url).port), 'get_info');
      return { height: r.result.height as number, hash: r.result.top_block_hash as string };
    }),
  );
}

describe('saltnet up --nodes 3 (sim)', { timeout: 300_000 }, () => {
  let dir: string;
  const env = (): Record<string, string> => ({
    SALTNET_STATE_DIR: join(dir, 'state'),
    SALTNET_CACHE_DIR: join(dir, 'cache'),
    CI: '1',
  });
  const running: ResultPromise[] = [];
  const saltnet = (args: string[]) => execa(process.execPath, [CLI, ...args], { env: env(), reject: false, all: true });
  let up: Started;

  beforeAll(async () => {
    dir = tempDir('saltnet-three-nodes-');
    up = await startUntilReady(['up', '--backend', 'sim', '--nodes', '3'], env(), running, 300_000);
  }, 320_000);
  afterAll(async () => {
    await stopStarted(running, env(), 'SIGINT');
    cleanup(dir);
  });

  it('starts n0, n1 and n2, joined by three links, on one chain', async () => {
    expect(up.ready.nodes.map((n: { name: string }) => n.name)).toEqual(['n0', 'n1', 'n2']);
    const links = (up.ready.links as { link: string; mode: string }[]).map((l) => `${l.link} ${l.mode}`);
    expect(links).toEqual(['n0-n1 open', 'n0-n2 open', 'n1-n2 open']);
    // status lists the links too (docs/multi-node.md), as the process that owns them says they are now.
    expect((await saltnet(['status'])).stdout).toContain('  links n0-n1 open, n0-n2 open, n1-n2 open\n');
    const [a, b, c] = await tops(up.ready.nodes);
    expect([b, c]).toEqual([a, a]);
  });

  it('blocks mined on n2 reach n0 and n1: all three stand on the same top', async () => {
    const before = (await tops(up.ready.nodes))[0]!.height;
    const mined = await saltnet(['mine', '3', '--node', 'n2']);
    expect(mined.exitCode, mined.all as string).toBe(0);
    const agreed = await waitFor('the three nodes on one top', async () => {
      const t = await tops(up.ready.nodes);
      return t.every((x) => x.hash === t[0]!.hash) && t;
    });
    expect(agreed.map((t) => t.height)).toEqual([before + 3, before + 3, before + 3]);
  });
});

describe('a scenario of nodes: 3 (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-three-nodes-scenario-');
  });
  afterAll(() => cleanup(dir));

  it('partitions one node from the other two, mines on both sides, heals: all three agree on the longer chain', async () => {
    const file = fileURLToPath(new URL('three-nodes.yaml', import.meta.url));
    const lines: string[] = [];
    const [r] = await runFiles([file], {
      backend: 'sim',
      isolation: 'fresh',
      workers: 1,
      bail: false,
      cacheDir: join(dir, 'cache'),
      artifactsRoot: join(dir, 'artifacts'),
      // Paced: n0 and n1 then mine their first block within the same second, which must still make two blocks.
      daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
      log: (l) => lines.push(l),
    });
    expect([r!.status, r!.failure?.message], lines.join('\n')).toEqual(['passed', undefined]);
  }, 300_000);
});
