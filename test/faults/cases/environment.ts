// What happens around the programs: the workdir's disk or the cache's fills up, the workdir is
// removed, a port the testnet keeps is taken, two writers want one folder, a folder that can never
// be created is given.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { limitFileSize, put, signal, smallDisk, until, type FaultCase } from '../kit.js';

/** A small disk at `dir` for the case (tmpfs), or the RLIMIT_FSIZE wrapper where no mount is allowed. */
function disk(dir: string, mib: number): { wrap: string[]; release: () => void } {
  const unmount = smallDisk(dir, mib);
  if (unmount) return { wrap: [], release: unmount };
  return { wrap: limitFileSize(mib << 20), release: () => undefined };
}

/** Files a failed write may leave: `*.tmp*` anywhere under `dir`. */
const tmpFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && /\.tmp/.test(d.name))
        .map((d) => join(d.parentPath, d.name))
    : [];

export const ENVIRONMENT_CASES: FaultCase[] = [
  {
    id: 'the workdir disk fills while mining (defect 16): mine says why, up stops, no stack, no half-written file',
    kind: 'disk',
    async run(ctx) {
      const mount = join(ctx.dir, 'small');
      const d = disk(mount, 3);
      try {
        const workdir = join(mount, 'wd');
        const u = await ctx.up(['--workdir', workdir], { wrap: d.wrap });
        const m = await ctx.cli(['mine', '5000'], { timeoutMs: 60_000 });
        expect(m.code).toBe(1);
        // The why, from the daemon's error line (its log's, or a system error's on stderr: "ENOSPC: no space left…").
        expect(m.out).toMatch(/the daemon exited with code 1 while mining .*(no space left on device|file too large)/i);
        const exit = await u.exit(60_000);
        expect(exit.code).toBe(1);
        expect(u.err()).toMatch(/the testnet is down: /);
        expect(tmpFiles(join(workdir, 'wallets'))).toEqual([]);
        if (!existsSync(join(workdir, 'wallets', 'main.keys'))) ctx.lost('the main wallet keys file');
      } finally {
        d.release();
      }
    },
  },
  {
    id: 'the cache disk is full: the testnet comes up all the same, the save failure is said, no half snapshot',
    kind: 'disk',
    async run(ctx) {
      const cache = join(ctx.dir, 'cache');
      const d = disk(cache, 1);
      try {
        // Its build (a fresh cache) is saved into 1 MiB: too small for the chain state.
        put(join(cache, 'filler'), 'x'.repeat(900_000));
        const u = await ctx.up(['--height', '200'], { env: { SALTNET_CACHE_DIR: cache }, wrap: d.wrap });
        expect(u.err()).toMatch(/could not save snapshot \S+: /);
        expect(u.ready.height).toBe(200);
        const ls = await ctx.cli(['cache', 'ls'], { env: { SALTNET_CACHE_DIR: cache } });
        expect(ls.out).not.toMatch(/sim-d1-h200/);
        expect(tmpFiles(join(cache, 'snapshots'))).toEqual([]);
      } finally {
        d.release();
      }
    },
  },
  {
    id: 'the workdir removed under a running testnet (defect 4): it stops and says so, never restarted empty',
    kind: 'workdir',
    async run(ctx) {
      const workdir = join(ctx.dir, 'wd');
      const u = await ctx.up(['--workdir', workdir]);
      rmSync(workdir, { recursive: true, force: true });
      const exit = await u.exit(30_000);
      expect(exit.code).toBe(1);
      expect(u.err()).toContain(`--workdir ${workdir} was removed while the testnet ran: the testnet is stopped`);
      expect(u.err()).not.toMatch(/starting it again on the same data/);
      expect(existsSync(workdir)).toBe(false);
      const st = await ctx.cli(['status']);
      expect(st.out).toMatch(/no testnet is running/);
    },
  },
  {
    id: 'two up on one --workdir (defect 3): the second exits 1 at once naming the holder; the first goes on',
    kind: 'writers',
    async run(ctx) {
      const workdir = join(ctx.dir, 'wd');
      const first = await ctx.up(['--workdir', workdir]);
      const second = await ctx.cli([
        'up',
        '--backend',
        'sim',
        '--height',
        '30',
        '--unlocked',
        '0',
        '--workdir',
        workdir,
      ]);
      expect(second.code).toBe(1);
      expect(second.out).toContain(
        `--workdir ${workdir} is in use by the testnet of saltnet up (pid ${first.proc.pid}`,
      );
      expect(second.out).toContain(`run ${first.ready.runId}`);
      const m = await ctx.cli(['mine', '2']);
      expect(m.code, m.out).toBe(0);
      first.proc.kill('SIGINT');
      await first.exit();
      // The folder comes back with every block the first one mined.
      const again = await ctx.up(['--workdir', workdir]);
      if (again.ready.height < first.ready.height + 2)
        ctx.lost(`the workdir came back at ${again.ready.height}, not ${first.ready.height + 2}`);
    },
  },
  {
    id: 'two runs with one --output: the second is refused at once naming the first; an input is never replaced',
    kind: 'writers',
    async run(ctx) {
      const file = put(
        join(ctx.dir, 's.yaml'),
        'name: w\nrequires: { height: 30 }\nsteps:\n  - call: { method: get_block_count, on: daemon }\n',
      );
      const first = ctx.cli(['run', file, '--backend', 'sim', '--reporter', 'junit', '--output', 'r.xml'], {
        env: { SALTNET_SIM_TEST_STALL: 'get_block_count:6000' },
        timeoutMs: 60_000,
      });
      await until('the first run', () => ctx.runOrUndefined(), 30_000);
      const second = await ctx.cli(['run', file, '--backend', 'sim', '--reporter', 'junit', '--output', 'r.xml']);
      expect(second.code).toBe(1);
      expect(second.out).toMatch(/--output r\.xml is in use by saltnet run \(pid \d+/);
      expect((await first).code).toBe(0);
      ctx.inside(join(ctx.dir, 'r.xml'));
      const before = readFileSync(file, 'utf8');
      const onInput = await ctx.cli(['run', file, '--backend', 'sim', '--reporter', 'junit', '--output', file]);
      expect(onInput.code).toBe(1);
      const u = await ctx.up();
      const save = await ctx.cli(['snapshot', 'save', file]);
      expect(save.code).toBe(1);
      expect(save.out).toMatch(/exists and is not an archive/);
      const intoWorkdir = await ctx.cli(['snapshot', 'save', join(u.ready.workdir, 'x.tar.gz')]);
      expect(intoWorkdir.code).toBe(1);
      expect(intoWorkdir.out).toMatch(/which the save reads/);
      if (readFileSync(file, 'utf8') !== before) ctx.lost(`${file} was replaced`);
    },
  },
  {
    id: 'a folder that can never be made (/proc/nope) for --workdir, --artifacts, --cache-dir (defect 2): exit 1',
    kind: 'workdir',
    async run(ctx) {
      const file = put(join(ctx.dir, 'ok.yaml'), 'name: ok\nrequires: { height: 30 }\nsteps:\n  - mine: 1\n');
      const up = await ctx.cli(['up', '--backend', 'sim', '--workdir', '/proc/nope']);
      expect(up.code).toBe(1);
      expect(up.out).toContain('--workdir /proc/nope cannot be created: /proc/nope cannot be made in /proc');
      const art = await ctx.cli(['run', file, '--backend', 'sim', '--artifacts', '/proc/nope']);
      expect(art.code).toBe(1);
      expect(art.out).toMatch(/\/proc\/nope/);
      const cache = await ctx.cli(['run', file, '--backend', 'sim', '--cache-dir', '/proc/nope'], {
        timeoutMs: 60_000,
      });
      expect(cache.code).toBe(1);
      expect(cache.out).toContain('the cache folder /proc/nope cannot be created');
    },
  },
  {
    id: 'a port the daemon keeps is taken while it restarts after a crash (defect 12): the port and holder named',
    kind: 'ports',
    async run(ctx) {
      const u = await ctx.up();
      const port = u.ready.daemon.ports.rpc as number;
      // Hold `up` still while the daemon dies and another process takes its RPC port.
      signal(u.proc.pid!, 'SIGSTOP');
      let server: Server | undefined;
      try {
        signal(u.ready.daemon.pid as number, 'SIGKILL');
        server = await listenWhenFree(port);
      } finally {
        signal(u.proc.pid!, 'SIGCONT');
      }
      try {
        const exit = await u.exit(30_000);
        expect(exit.code).toBe(1);
        expect(u.err()).toContain(`could not bind its RPC port ${port} (taken by pid ${process.pid}`);
        expect(u.err()).toMatch(/tried 3 times/);
      } finally {
        server?.close();
      }
    },
  },
  {
    id: "the explorer's port is taken: up --ui --ui-port names the port and its holder, and starts nothing",
    kind: 'ports',
    async run(ctx) {
      const server = await listenWhenFree(0);
      const port = (server.address() as AddressInfo).port;
      try {
        const u = ctx.start(['--verbose', '--ui', '--ui-port', String(port)]);
        const exit = await u.exit(30_000);
        expect(exit.code).toBe(1);
        expect(u.err()).toContain(`--ui-port: a port is taken:\n  port ${port} (the explorer) is taken`);
        expect(u.err()).toMatch(/nothing was started: choose another --ui-port/);
        expect(u.err()).not.toMatch(/daemon ready|wallet .* ready/);
        expect(ctx.runOrUndefined()).toBeUndefined();
      } finally {
        server.close();
      }
    },
  },
];

/** Listen on `port` as soon as it is free (the killed daemon lets it go at once). */
async function listenWhenFree(port: number): Promise<Server> {
  for (let i = 0; ; i++) {
    try {
      return await new Promise<Server>((ok, fail) => {
        const s = createServer();
        s.once('error', fail);
        s.listen({ port, host: '127.0.0.1', exclusive: true }, () => ok(s));
      });
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
