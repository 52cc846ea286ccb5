// The GitHub Actions template (scripts/ci/github-actions.yml) fits together: each sharded job runs shard k of as many
// as its matrix has and uploads the report it writes; the `report` job, after all of them, downloads those artifacts
// and its `saltnet report merge` names every shard's report where the download puts it; and `prepare` builds, on a
// miss, every state its cache key names. (examples.test.ts parses every saltnet command line of it.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from './blocks.js';
import { commandsOf, saltnetArgs } from './shell.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  strategy?: { matrix?: { shard?: number[] } };
  steps: Step[];
}

const workflow = parseYaml(readFileSync(join(ROOT, 'scripts/ci/github-actions.yml'), 'utf8')) as {
  jobs: Record<string, Job>;
};
const jobs = workflow.jobs;
const sharded = Object.entries(jobs).filter(([, j]) => j.strategy?.matrix?.shard);

/** A GitHub expression `${{ matrix.shard }}` (EXPRESSION in a command's words: shell.ts) filled in for shard k. */
const at = (text: string, k: number): string => text.replace(/\$\{\{\s*matrix\.shard\s*\}\}|EXPRESSION/g, String(k));
/** Every command of a job's `run` steps, as words. */
const commands = (j: Job): string[][] => j.steps.flatMap((s) => (s.run ? commandsOf(s.run).map((c) => c.words) : []));
const upload = (j: Job): Step => j.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
const optionOf = (words: string[], name: string): string | undefined => {
  const i = words.findIndex((w) => w === name || w.startsWith(`${name}=`));
  return i < 0 ? undefined : words[i]!.includes('=') ? words[i]!.slice(name.length + 1) : words[i + 1];
};

/** The report a shard's test command writes: `saltnet run … --output F`, `vitest run … --outputFile.junit=F`. */
function reportOf(j: Job): string {
  for (const w of commands(j)) {
    const out = saltnetArgs(w)?.[0] === 'run' ? optionOf(w, '--output') : undefined;
    if (out) return out;
    if (w[0] === 'npx' && w[1] === 'vitest') return optionOf(w, '--outputFile.junit')!;
  }
  throw new Error('no test command that writes a report');
}

describe('scripts/ci/github-actions.yml', () => {
  it('has sharded jobs, each running shard k of as many as its matrix lists', () => {
    expect(sharded.map(([name]) => name)).toEqual(['scenarios', 'vitest']);
    for (const [name, j] of sharded) {
      const shards = j.strategy!.matrix!.shard!;
      expect(shards, name).toEqual(shards.map((_, i) => i + 1));
      const shardArg = commands(j)
        .map((w) => optionOf(w, '--shard'))
        .find((v) => v !== undefined);
      expect(shardArg, name).toBe(`EXPRESSION/${shards.length}`);
    }
  });

  it('merges every shard’s report in a `report` job that runs after them all, failed or not', () => {
    const report = jobs.report!;
    expect(report, 'a report job').toBeDefined();
    expect([report.needs].flat().sort()).toEqual(sharded.map(([name]) => name).sort());
    expect(report.if).toBe('always()');
    const download = report.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    expect(download, 'a download-artifact step').toBeDefined();
    const into = download.with!.path!;
    const merges = commands(report).filter((w) => saltnetArgs(w)?.slice(0, 2).join(' ') === 'report merge');
    expect(merges).toHaveLength(1);
    const args = saltnetArgs(merges[0]!)!;
    const output = optionOf(args, '--output');
    expect(output, 'the merged report is written to a file').toBeTruthy();
    const globs = args.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--output');
    const named = picomatch(globs);
    for (const [name, j] of sharded)
      for (const k of j.strategy!.matrix!.shard!) {
        const artifact = at(upload(j).with!.name!, k);
        const file = at(reportOf(j), k);
        expect(picomatch(download.with!.pattern!)(artifact), `${name} ${k}: ${artifact} downloaded`).toBe(true);
        expect(at(upload(j).with!.path!, k).split('\n'), `${name} ${k}: ${file} uploaded`).toContain(file);
        expect(named(`${into}/${artifact}/${file}`), `${name} ${k}: ${into}/${artifact}/${file} merged`).toBe(true);
      }
    const uploaded = upload(report);
    expect(uploaded.with!.path).toBe(output);
  });

  it('builds on a cache miss every chain state its cache key names', () => {
    const prepare = jobs.prepare!;
    const keyed = commands(prepare)
      .map(saltnetArgs)
      .filter((a) => a?.slice(0, 2).join(' ') === 'cache key')
      .map((a) => a!.slice(2).join(' '));
    const built = commands(prepare)
      .map(saltnetArgs)
      .filter((a) => a?.slice(0, 2).join(' ') === 'cache build')
      .map((a) => a!.slice(2).join(' '));
    expect(keyed.length).toBeGreaterThan(1);
    expect(built.sort()).toEqual(keyed.sort());
  });
});
