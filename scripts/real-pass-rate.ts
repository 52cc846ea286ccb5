// `npm run real-pass-rate -- [N]`: run every example scenario on real Salvium N times (default 10),
// each time from an empty cache (`saltnet run 'scenarios/*.yaml' --backend salvium --difficulty 1`,
// exactly as a user would), and print each run's result and the pass rate. The real programs come
// from SALTNET_BIN_DIR or ../shared/salvium/ (scripts/real-binaries.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { findRealBinaries } from './real-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(root, 'dist', 'harness', 'cli', 'main.js');

async function once(binDir: string, i: number, n: number): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-pass-rate-'));
  const report = join(dir, 'report.json');
  const t0 = Date.now();
  let keep = false;
  try {
    const r = await execa(
      process.execPath,
      [
        CLI,
        'run',
        'scenarios/*.yaml',
        '--backend',
        'salvium',
        '--bin-dir',
        binDir,
        '--difficulty',
        '1',
        '--cache-dir',
        join(dir, 'cache'),
        '--artifacts',
        join(dir, 'artifacts'),
        '--reporter',
        'json',
        '--output',
        report,
      ],
      {
        cwd: root,
        reject: false,
        all: true,
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    const secs = ((Date.now() - t0) / 1000).toFixed(0);
    let summary = '';
    try {
      const j = JSON.parse(readFileSync(report, 'utf8')) as { results?: { name: string; status: string }[] };
      const res = j.results ?? [];
      const bad = res.filter((x) => x.status !== 'passed' && x.status !== 'skipped');
      summary = `${res.length - bad.length}/${res.length} scenarios passed${bad.length ? ` — not: ${bad.map((b) => `${b.name} (${b.status})`).join('; ')}` : ''}`;
    } catch {
      summary = `no report (${(r.all ?? '').split('\n').slice(-3).join(' | ')})`;
    }
    const crashes = ((r.all ?? '').match(/exited with (signal|code) \S+ .*starting it again/g) ?? []).length;
    process.stdout.write(
      `run ${i}/${n}: ${r.exitCode === 0 ? 'PASS' : 'FAIL'} in ${secs} s, ${summary}${crashes ? `, ${crashes} crash(es) recovered` : ''}\n`,
    );
    if (r.exitCode !== 0) {
      // Kept for reading: the run's output, and each scenario's artifacts (transcript, logs).
      writeFileSync(join(dir, 'output.txt'), r.all ?? '');
      rmSync(join(dir, 'cache'), { recursive: true, force: true });
      keep = true;
      process.stdout.write(`  its output and artifacts are kept in ${dir}\n`);
    }
    return r.exitCode === 0;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 10);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`the number of runs must be a whole number >= 1, got ${process.argv[2]}`);
  const found = await findRealBinaries(root);
  if ('why' in found) throw new Error(found.why);
  process.stdout.write(
    `saltnet real pass rate: ${n} cold runs of every example scenario on ${found.dir}, difficulty 1\n`,
  );
  let passed = 0;
  for (let i = 1; i <= n; i++) if (await once(found.dir, i, n)) passed++;
  process.stdout.write(`pass rate: ${passed}/${n} runs passed\n`);
  process.exitCode = passed === n ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`real-pass-rate: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
