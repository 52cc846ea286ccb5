// Every example of the docs (README.md, docs/*.md, the harness folders' READMEs) works as shown:
// scenarios run on the simulator, step excerpts come from example scenarios that run (or parse as
// steps), accept and config files load, every `saltnet …` line parses against the command's own
// yargs definitions, every `npm run X` names a script, every TypeScript snippet type-checks, and the
// library snippet runs. A broken example fails here, at its file and line.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { ParsedOnly, saltnetCli } from '../../harness/cli/program.js';
import { parseAcceptFile } from '../../harness/diff/accept.js';
import { validateConfig } from '../../harness/config/validate.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { allBlocks, docFiles, ROOT, type Block } from './blocks.js';
import { commandsOf, dockerfileShell, saltnetArgs } from './shell.js';
import { typecheckSnippets, runLibrarySnippet, snippetsOf } from './snippets.js';

const blocks = allBlocks();
const WORK = join(ROOT, '.saltnet', 'doc-examples');
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const OUTPUT = new Set(['', 'text', 'markdown']);
type YamlKind =
  'scenario' | 'steps' | 'accept' | 'config' | 'workflow' | 'prometheus' | 'compose' | 'comment' | 'invalid';

function yamlKind(b: Block): YamlKind {
  let v: unknown;
  try {
    v = parseYaml(b.text);
  } catch {
    return 'invalid';
  }
  if (v === null || v === undefined) return 'comment';
  if (Array.isArray(v)) {
    const first = v[0] as Record<string, unknown>;
    return 'uses' in first || 'run' in first || 'id' in first ? 'workflow' : 'steps';
  }
  const o = v as Record<string, unknown>;
  if ('steps' in o) return 'scenario';
  if ('accept' in o) return 'accept';
  // A Prometheus scrape config: test/cli/metrics.test.ts scrapes a running testnet with it.
  if ('scrape_configs' in o) return 'prometheus';
  // A compose file (docs/scale-out.md's sketch): checked for the services it names, below.
  if ('services' in o) return 'compose';
  return 'config';
}

/** Lines of a YAML text without indentation, blank lines and comments: to find an excerpt in a scenario file. */
const bare = (t: string): string =>
  t
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'))
    .join('\n');

describe('every example of the docs', () => {
  it('has a kind this suite knows how to check', () => {
    const known = (b: Block): boolean =>
      SHELL.has(b.lang) || OUTPUT.has(b.lang) || ['yaml', 'yml', 'ts', 'js', 'json', 'dockerfile'].includes(b.lang);
    expect(blocks.filter((b) => !known(b)).map((b) => `${b.where}: \`\`\`${b.lang}`)).toEqual([]);
    expect(blocks.length).toBeGreaterThan(40);
  });

  it('every saltnet command line parses against the command’s own options', async () => {
    const problems: string[] = [];
    let checked = 0;
    const lines = blocks.filter((b) => SHELL.has(b.lang)).flatMap((b) => commandsOf(b.text).map((c) => ({ b, c })));
    const runsOf = (b: Block, steps: Array<Record<string, unknown>>) =>
      steps.filter((s) => typeof s.run === 'string').flatMap((s) => commandsOf(s.run as string).map((c) => ({ b, c })));
    const workflowRuns = blocks
      .filter((b) => ['yaml', 'yml'].includes(b.lang) && yamlKind(b) === 'workflow')
      .flatMap((b) => runsOf(b, parseYaml(b.text) as Array<Record<string, unknown>>));
    // The workflow README's CI section points to (scripts/ci): every job's steps.
    for (const file of globSync('scripts/ci/*.yml', { cwd: ROOT })) {
      const wf = parseYaml(readFileSync(join(ROOT, file), 'utf8')) as { jobs: Record<string, { steps: [] }> };
      const b: Block = { where: file, file, line: 1, lang: 'yaml', text: '' };
      for (const job of Object.values(wf.jobs)) workflowRuns.push(...runsOf(b, job.steps));
    }
    // A Dockerfile's RUN, CMD and HEALTHCHECK lines (docs/scale-out.md's image).
    const dockerRuns = blocks
      .filter((b) => b.lang === 'dockerfile')
      .flatMap((b) =>
        dockerfileShell(b.text).flatMap((d) => commandsOf(d.shell).map((c) => ({ b, c: { ...c, line: d.line } }))),
      );
    expect(
      dockerRuns.some(({ c }) => saltnetArgs(c.words)),
      'a saltnet command in a Dockerfile',
    ).toBe(true);
    for (const { b, c } of [...lines, ...workflowRuns, ...dockerRuns]) {
      const args = saltnetArgs(c.words);
      if (!args) continue;
      checked++;
      try {
        await saltnetCli(args, { parseOnly: true }).parseAsync();
        problems.push(`${b.where} (+${c.line}): saltnet ${args.join(' ')}: ran a command instead of parsing`);
      } catch (err) {
        if (!(err instanceof ParsedOnly))
          problems.push(`${b.where} (+${c.line}): saltnet ${args.join(' ')}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('every `npm run X` names a script of package.json', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts;
    const problems: string[] = [];
    for (const b of blocks.filter((x) => SHELL.has(x.lang)))
      for (const c of commandsOf(b.text))
        if (c.words[0] === 'npm' && c.words[1] === 'run' && !(c.words[2]! in scripts))
          problems.push(`${b.where} (+${c.line}): npm run ${c.words[2]}: no such script`);
    expect(problems).toEqual([]);
  });

  it('YAML and JSON parse; accept files and config files load', () => {
    const problems: string[] = [];
    for (const b of blocks) {
      try {
        if (b.lang === 'json') JSON.parse(b.text);
        if (!['yaml', 'yml'].includes(b.lang)) continue;
        const kind = yamlKind(b);
        if (kind === 'invalid') parseYaml(b.text);
        if (kind === 'accept') parseAcceptFile(b.text, join(ROOT, 'saltnet.diff-accept.yaml'));
        if (kind === 'config') {
          const r = validateConfig(parseYaml(b.text));
          if (r.problems.length) throw new Error(r.problems.map((p) => JSON.stringify(p)).join('; '));
        }
      } catch (err) {
        problems.push(`${b.where}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('a compose file names only its own services: depends_on and every --add-exclusive-node peer', () => {
    const composes = blocks.filter((b) => ['yaml', 'yml'].includes(b.lang) && yamlKind(b) === 'compose');
    expect(composes.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const b of composes) {
      const { services } = parseYaml(b.text, { merge: true }) as {
        services: Record<string, { depends_on?: Record<string, unknown>; command?: string | string[] }>;
      };
      for (const [name, svc] of Object.entries(services)) {
        for (const dep of Object.keys(svc.depends_on ?? {}))
          if (!(dep in services)) problems.push(`${b.where}: ${name} depends on ${dep}, no service of the file`);
        const command = [svc.command ?? []].flat().join(' ');
        for (const m of command.matchAll(/--add-exclusive-node\s+([^\s:]+):\d+/g))
          if (!(m[1]! in services) || m[1] === name)
            problems.push(`${b.where}: ${name} peers with ${m[1]}, not another service of the file`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every step excerpt is part of an example scenario (which runs), or parses as steps', () => {
    const scenarioTexts = readdirYaml(join(ROOT, 'scenarios')).map(bare);
    const problems: string[] = [];
    for (const b of blocks.filter((x) => ['yaml', 'yml'].includes(x.lang) && yamlKind(x) === 'steps')) {
      if (scenarioTexts.some((s) => s.includes(bare(b.text)))) continue;
      const indented = b.text
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n');
      try {
        parseScenario(`name: excerpt\nwallets: { bob: {} }\nsteps:\n${indented}\n`, `${b.where}.yaml`);
      } catch (err) {
        problems.push(`${b.where}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every scenario of the docs passes on the simulator', async () => {
    // A scenario of the docs that is an example scenario (docs/scenario-language.md shows some whole) runs with them.
    const examples = readdirYaml(join(ROOT, 'scenarios')).map(bare);
    const scenarios = blocks.filter(
      (b) => ['yaml', 'yml'].includes(b.lang) && yamlKind(b) === 'scenario' && !examples.includes(bare(b.text)),
    );
    expect(blocks.filter((b) => ['yaml', 'yml'].includes(b.lang) && yamlKind(b) === 'scenario').length).toBeGreaterThan(
      0,
    );
    if (scenarios.length === 0) return; // every one is an example scenario: test/runner/run-scenarios.test.ts runs them
    const files = scenarios.map((b) => {
      const f = join(WORK, `${b.where.replace(/[/:.]/g, '_')}.yaml`);
      writeFileSync(f, b.text);
      return { b, f };
    });
    const results = await runFiles(
      files.map((x) => x.f),
      {
        backend: 'sim',
        isolation: 'shared',
        workers: 1,
        bail: false,
        artifactsRoot: join(WORK, 'artifacts'),
        daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
        log: () => undefined,
      },
    );
    const failed = results
      .filter((r) => r.status !== 'passed')
      .map(
        (r) =>
          `${files.find((x) => x.f === r.file)?.b.where}: ${r.status}: ${r.failure?.message ?? ''} ${r.failure?.expected ?? ''} ${r.failure?.actual ?? ''}`,
      );
    expect(failed).toEqual([]);
  });

  // A compile of every snippet against the package: about a minute of one core on CI's loaded two.
  it('every TypeScript snippet type-checks against the package', { timeout: 240_000 }, () => {
    const snippets = blocks.filter((b) => b.lang === 'ts').flatMap((b) => snippetsOf(b));
    expect(typecheckSnippets(snippets, join(WORK, 'ts'))).toEqual([]);
  });

  it('the README library snippet runs in plain JavaScript on this Node', async () => {
    const js = blocks.find((b) => b.file === 'README.md' && b.lang === 'js' && b.text.includes('startTestnet'));
    expect(js, 'README.md has a plain-JavaScript library example').toBeDefined();
    // In a project of its own that depends on saltnet, as a user runs it: no scenarios/ of this repository beside it.
    const r = await runLibrarySnippet(js!, 'demo.mjs');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^height \d+ unlocked \d+n$/m);
    expect(r.stdout).toMatch(/^passed: \d+ steps$/m);
  });
});

function readdirYaml(dir: string): string[] {
  return globSync('*.yaml', { cwd: dir, absolute: true }).map((f) => readFileSync(f, 'utf8'));
}

it('the README TypeScript library snippet, compiled, runs too', async () => {
  const block = blocks.find((b) => b.file === 'README.md' && b.lang === 'ts' && b.text.includes('startTestnet'));
  expect(block, 'README.md has a TypeScript library example').toBeDefined();
  const [snippet] = snippetsOf(block!);
  const r = await runLibrarySnippet(snippet!, 'demo.mjs');
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^\d+$/m);
});

describe('the checks themselves', () => {
  it('a command line with an option the command lacks is refused, one with its own options parses', async () => {
    const parse = async (args: string[]): Promise<unknown> => saltnetCli(args, { parseOnly: true }).parseAsync();
    await expect(parse(['run', 'a.yaml', '--such-flag'])).rejects.toThrow(/Unknown argument/);
    await expect(parse(['run', 'a.yaml', '--reporter', 'junit'])).rejects.toBeInstanceOf(ParsedOnly);
  });

  it('shell lines are split into commands: continuations, comments, placeholders, $(…) and ${{ }}', () => {
    const text = [
      'npx saltnet repro .saltnet/artifacts/<run>   # a comment',
      'A=1 saltnet up \\',
      '  --json && curl -s http://127.0.0.1:<rpc port>/get_info | grep OK',
      'echo "k=$(npx saltnet cache key --for \'s/*.yaml\')" --shard ${{ matrix.shard }}/4',
    ].join('\n');
    expect(commandsOf(text).map((c) => [c.line, c.words.join(' ')])).toEqual([
      [1, 'npx saltnet repro .saltnet/artifacts/PLACEHOLDER_run'],
      [2, 'saltnet up --json'],
      [2, 'curl -s http://127.0.0.1:PLACEHOLDER_rpc_port/get_info'],
      [2, 'grep OK'],
      [4, 'npx saltnet cache key --for s/*.yaml'],
      [4, 'echo k=SUBSTITUTED --shard EXPRESSION/4'],
    ]);
  });
});

describe('every link of the docs', () => {
  it('points to a file of the project (a clone has nothing beside it), and no doc cites ../shared/reference', () => {
    const problems: string[] = [];
    for (const file of docFiles()) {
      const text = readFileSync(file, 'utf8');
      const rel = relative(ROOT, file);
      let fenced = false;
      text.split('\n').forEach((l, i) => {
        // Links inside a code block are text (e.g. a README section shown as it would be pasted).
        if (/^\s*```/.test(l)) fenced = !fenced;
        if (fenced) return;
        if (l.includes('shared/reference'))
          problems.push(`${rel}:${i + 1}: cites ../shared/reference, which a clone lacks`);
        for (const m of l.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
          const target = m[1]!;
          if (/^[a-z]+:/i.test(target)) continue;
          if (!existsSync(resolve(dirname(file), target)))
            problems.push(`${rel}:${i + 1}: link to ${target}: no such file`);
        }
      });
    }
    expect(problems).toEqual([]);
  });
});
