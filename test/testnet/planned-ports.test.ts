// A warm `up` starts the main wallet's RPC beside the daemon, on the address planned for the daemon before it answers
// (NodeSet.planFirst). A port taken by another program in that moment moves the daemon to fresh ports; the wallet RPC
// is then pointed at where the daemon is (WalletSet.followFirstNode), and a restart of it starts on that address.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSupervisor, type Supervisor } from '../../harness/process/supervisor.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { NodeSet } from '../../harness/testnet/programs/nodes.js';
import { WalletSet } from '../../harness/testnet/programs/wallets.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let sup: Supervisor | undefined;
let dir: string | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
  await sup?.stopAll();
  if (dir) cleanup(dir);
  sup = dir = undefined;
});

function testnetParts(): { nodes: NodeSet; wallets: WalletSet } {
  dir = tempDir('saltnet-planned-');
  for (const d of ['logs', 'wallets']) mkdirSync(join(dir, d));
  sup = createSupervisor({ workdir: dir, trapSignals: false, reaper: false });
  const backend = resolveBackend('sim');
  const programs = { log: () => undefined, onFatal: () => undefined, phase: () => 'while the testnet was starting' };
  const nodes = new NodeSet({
    sup,
    backend,
    workdir: dir,
    count: 1,
    programs,
    settings: () => ({ difficulty: 1 }),
    env: { SALTNET_SIM_MIN_BLOCK_MS: '0' },
  });
  const wallets = new WalletSet({
    sup,
    backend,
    walletsDir: join(dir, 'wallets'),
    workdir: dir,
    password: 'not-a-secret-here',
    passwordFile: join(dir, 'wallets', '.password'),
    daemonUrl: () => nodes.firstUrl,
    login: 'none',
    programs,
  });
  closers.push(
    () => wallets.closeClients(),
    () => nodes.close(),
  );
  return { nodes, wallets };
}

const portOf = (url: string): number => Number(new URL(url).port);

/** Another program on `port`: it hangs up on every connection. */
async function occupy(port: number): Promise<Server> {
  const s = createServer((c) => c.destroy());
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', resolve);
  });
  closers.push(() => new Promise((r) => s.close(r)));
  return s;
}

describe("n0's planned address", () => {
  it('is where n0 starts when nothing took its ports meanwhile', async () => {
    const { nodes } = testnetParts();
    expect(() => nodes.firstUrl).toThrow(/neither started nor planned/);
    await nodes.planFirst();
    const planned = nodes.firstUrl;
    const h = await nodes.startFirst();
    expect(h.url).toBe(planned);
    expect(nodes.firstUrl).toBe(planned);
  });

  it('moves with n0 when its port was taken, and a wallet RPC started on the old one is pointed at the new', async () => {
    const { nodes, wallets } = testnetParts();
    await nodes.planFirst();
    const planned = nodes.firstUrl;
    // The wallet RPC starts first, on the planned address; another program takes the daemon's RPC port.
    const wallet = await wallets.add('w');
    await occupy(portOf(planned));
    const h = await nodes.startFirst();
    expect(h.url).not.toBe(planned);
    expect(nodes.firstUrl).toBe(h.url);
    // Nothing answers its wallet RPC's daemon requests on the planned port.
    await expect(wallet.client.call('refresh')).rejects.toThrow();
    await wallets.followFirstNode();
    await wallet.client.call('refresh');
    const height = (await wallet.client.call<{ height: number }>('get_height')).height;
    expect(height).toBe(await nodes.rawClient(0).height());
    // A restart of the wallet RPC starts on the daemon's address.
    await wallets.restart('w');
    await wallet.client.call('refresh');
    expect(wallets.programs()[0]!.current.daemonUrl).toBe(h.url);
  });
});
