// What saltnet reads and did not write as it is: crafted run records and workdir locks (none may
// get a foreign process signalled, or another run's folder removed), and config modules that never
// finish loading (defect 1: a silent exit 0 in CI).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { alive, put, type FaultCase, type FaultContext } from '../kit.js';

/** The identity saltnet records of a process (process/identity.ts): here copied from a foreign one, or bent. */
function identityOf(pid: number): { startTime: string; exe: string; argc: number; argsHash: string } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  return {
    startTime,
    exe: argv[0]!.split('/').pop()!,
    argc: argv.length - 1,
    argsHash: createHash('sha256').update(argv.slice(1).join('\0')).digest('hex'),
  };
}

const DEAD = { pid: 4_000_000, startTime: '1' };

function craft(ctx: FaultContext, name: string, record: object): void {
  writeFileSync(join(ctx.env['SALTNET_STATE_DIR']!, `${name}.json`), JSON.stringify(record));
}

export const INPUT_CASES: FaultCase[] = [
  {
    id: 'crafted run records naming foreign processes (defect 6): reported by status and down, none signalled',
    kind: 'registry',
    async run(ctx) {
      const [a, b, c, d] = ctx.suite.foreign as [number, number, number, number];
      const base = {
        startedAt: new Date().toISOString(),
        workdir: join(ctx.dir, 'nowhere'),
        info: {},
      };
      const entry = (pid: number, over: object = {}) => ({
        name: 'daemon',
        pid,
        commandLine: 'sleep 3600',
        ...identityOf(pid),
        ...over,
      });
      // An older saltnet's shape: no identities at all.
      craft(ctx, 'old', {
        runId: 'old',
        ownerPid: DEAD.pid,
        ownerStartTime: '',
        ...base,
        processes: [{ name: 'daemon', pid: a, startTime: '', commandLine: 'sleep' }],
      });
      // No workdir, no owner identity.
      craft(ctx, 'bare', { runId: 'bare', ownerPid: DEAD.pid, processes: [{ pid: b }] });
      const owner = { ...identityOf(process.pid), startTime: DEAD.startTime };
      // Valid shapes with a dead owner: a bent command line; a perfect copy of a foreign process's identity.
      craft(ctx, 'bent', { runId: 'bent', ownerPid: DEAD.pid, owner, ...base, processes: [entry(c, { argc: 9 })] });
      craft(ctx, 'copied', { runId: 'copied', ownerPid: DEAD.pid, owner, ...base, processes: [entry(d)] });
      // Its owner a live foreign process (copied identity): `down` would signal the owner; it must not.
      craft(ctx, 'owned', { runId: 'owned', ownerPid: a, owner: identityOf(a), ...base, processes: [entry(b)] });
      writeFileSync(join(ctx.env['SALTNET_STATE_DIR']!, 'junk.json'), '{"runId": ');
      const st = await ctx.cli(['status']);
      expect(st.out).toMatch(/old\.json is not a valid run record \(owner: /);
      expect(st.out).toMatch(/junk\.json is not a valid run record/);
      // --all: the live owner of `owned` is not saltnet up's, so only --all (or --run) would try it.
      const down = await ctx.cli(['down', '--all']);
      expect(down.code, down.out).toBe(0);
      expect(down.out).toMatch(/bare\.json is not a valid run record/);
      expect(down.out).toContain(`pid ${c} (daemon) is not signalled: its command line is not the one recorded`);
      expect(down.out).toContain(`pid ${d} (daemon) is not signalled: it was not started by run copied`);
      expect(down.out).toContain(`run owned: its owner pid ${a} is not signalled: it does not hold`);
      for (const pid of ctx.suite.foreign) expect(alive(pid), `foreign sleep ${pid}`).toBe(true);
    },
  },
  {
    id: "a crafted stale record naming a live testnet's temporary workdir: the workdir is not removed",
    kind: 'registry',
    async run(ctx) {
      const u = await ctx.up();
      const owner = { ...identityOf(process.pid), startTime: DEAD.startTime };
      craft(ctx, 'thief', {
        runId: 'thief',
        ownerPid: DEAD.pid,
        owner,
        startedAt: new Date().toISOString(),
        workdir: u.ready.workdir,
        tempWorkdir: true,
        processes: [],
      });
      // A second up reaps stale runs first.
      await ctx.up(['--workdir', join(ctx.dir, 'wd2')]);
      const m = await ctx.cli(['mine', '1', '--run', u.ready.runId]);
      expect(m.code, m.out).toBe(0);
      const st = await ctx.cli(['status', '--json']);
      expect(JSON.parse(st.stdout).map((r: any) => r.state)).toEqual(['running', 'running']);
    },
  },
  {
    id: 'a crafted workdir lock: a dead or bent holder is taken over, a foreign one is refused, none signalled',
    kind: 'writers',
    async run(ctx) {
      const [a] = ctx.suite.foreign as [number];
      const workdir = join(ctx.dir, 'wd');
      const lock = join(workdir, '.saltnet-lock');
      const holder = (pid: number, owner: object) =>
        JSON.stringify({ pid, owner, what: 'a crafted holder', since: 'then', nonce: 'n' });
      put(lock, holder(a, { ...identityOf(a), argsHash: 'f'.repeat(64) }));
      const u = await ctx.up(['--workdir', workdir]);
      u.proc.kill('SIGINT');
      await u.exit();
      put(lock, holder(a, identityOf(a)));
      const r = await ctx.cli(['up', '--backend', 'sim', '--height', '30', '--unlocked', '0', '--workdir', workdir]);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`is in use by a crafted holder (pid ${a}`);
      expect(alive(a)).toBe(true);
    },
  },
  {
    id: 'a config module that never settles (defect 1): run, up and doctor fail with the reason, not exit 0',
    kind: 'config',
    async run(ctx) {
      put(join(ctx.dir, 'saltnet.config.mjs'), 'await new Promise(() => {});\nexport default {};\n');
      const file = put(join(ctx.dir, 'ok.yaml'), 'name: ok\nsteps:\n  - mine: 1\n');
      const said = /saltnet\.config\.mjs: \(file\): the config module never finishes loading/;
      const run = await ctx.cli(['run', file, '--backend', 'sim', '--reporter', 'junit', '--output', 'j.xml']);
      expect(run.code).toBe(1);
      expect(run.out).toMatch(said);
      const up = await ctx.cli(['up', '--backend', 'sim']);
      expect(up.code).toBe(1);
      expect(up.out).toMatch(said);
      const doctor = await ctx.cli(['doctor']);
      expect(doctor.out).toMatch(said);
      expect(doctor.code).toBe(1);
    },
  },
  {
    id: 'a config module waiting on a timer that never ends: fails after the load deadline (10 s, scaled)',
    kind: 'config',
    async run(ctx) {
      put(join(ctx.dir, 'saltnet.config.mjs'), 'await new Promise((r) => setTimeout(r, 1e9));\nexport default {};\n');
      const r = await ctx.cli(['status'], { env: { SALTNET_TIMEOUT_FACTOR: '0.2' } });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/the config module has not finished loading after 2 s/);
    },
  },
];
