// The shape of the code, checked (docs/architecture.md says why): dependencies between the folders of
// harness/ point one way, down; the simulator is a program of its own; no import cycle; and every
// source file and function stays small enough to read.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HARNESS = join(ROOT, 'harness');

/**
 * Each folder of harness/ and its layer: a folder may import only from lower layers (and itself).
 * The simulator (sim) is outside the ladder: it imports nothing from the harness but the one neutral
 * module they share, and the harness reaches it only through harness/sim/index.ts.
 */
const LAYERS: Record<string, number> = {
  common: 0,
  digest: 0, // HTTP Digest, which the harness's clients and the simulated servers both speak
  rpc: 1,
  process: 1,
  network: 1, // the links between a testnet's nodes: TCP proxies saltnet owns
  sim: 1,
  snapshot: 2,
  install: 2,
  testnet: 3,
  ui: 3.5, // the explorer: a page over a running testnet's RPCs (the control endpoint and the CLI start it)
  pool: 3.7, // testnets started ahead, handed out by acquire/release (fresh runs, the vitest integration)
  config: 4,
  control: 4, // the control endpoint of a running `up`: over the testnet
  scenario: 4,
  diff: 5,
  vitest: 5,
  record: 6, // above diff: it checks answers with the diff's table of volatile values
  fuzz: 6, // above diff: its programs run through diffScenarios
  cli: 7,
  '.': 8, // harness/index.ts and harness/limits.ts (see below)
};
/** Top-level modules that are leaves (constants every layer may read). */
const LEAF_MODULES = new Set(['limits.ts']);
/** The one module of the harness the simulator may import: the HTTP Digest code both sides speak. */
const SIM_MAY_IMPORT = new Set(['digest/digest.ts']);
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const sourceFiles = (globs: string[]): string[] => globSync(globs, { cwd: ROOT, absolute: true }).sort();
const harnessFiles = sourceFiles(['harness/**/*.ts']);

/**
 * Relative imports of a file (static, dynamic and re-exports), resolved to .ts paths; with
 * `runtime`, only those that load code when the file runs (not `import type`).
 */
function importsOf(file: string, runtime = false): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean): void => {
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.') && !(runtime && typeOnly))
      out.push(resolve(dirname(file), spec.text.replace(/\.js$/, '.ts')));
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) add(n.moduleSpecifier, n.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(n)) add(n.moduleSpecifier, n.isTypeOnly);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) add(n.arguments[0], false);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

const rel = (file: string): string => relative(HARNESS, file);
const folderOf = (file: string): string => (rel(file).includes('/') ? rel(file).split('/')[0]! : '.');

describe('dependencies point one way', () => {
  it('every folder of harness/ has a layer', () => {
    const folders = new Set(harnessFiles.map(folderOf));
    expect([...folders].filter((f) => LAYERS[f] === undefined)).toEqual([]);
  });

  it('a folder imports only from folders below it', () => {
    const wrong: string[] = [];
    for (const file of harnessFiles) {
      const from = folderOf(file);
      if (from === 'sim') continue;
      for (const target of importsOf(file)) {
        if (!target.startsWith(HARNESS)) continue;
        const to = folderOf(target);
        if (to === from || (to === '.' && LEAF_MODULES.has(rel(target)))) continue;
        if (to === 'sim' ? rel(target) !== 'sim/index.ts' : LAYERS[to]! >= LAYERS[from]!)
          wrong.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the simulator imports nothing from the harness but the Digest code both sides share', () => {
    const wrong: string[] = [];
    for (const file of harnessFiles.filter((f) => folderOf(f) === 'sim')) {
      for (const target of importsOf(file)) {
        if (folderOf(target) !== 'sim' && !SIM_MAY_IMPORT.has(rel(target)))
          wrong.push(`${rel(file)} → ${relative(ROOT, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the shipped code imports nothing from scripts/ or test/', () => {
    const wrong = harnessFiles.flatMap((f) =>
      importsOf(f)
        .filter((t) => !t.startsWith(HARNESS))
        .map((t) => `${rel(f)} → ${relative(ROOT, t)}`),
    );
    expect(wrong).toEqual([]);
  });

  it('no import cycle between files (type-only imports aside)', () => {
    const graph = new Map(harnessFiles.map((f) => [f, importsOf(f, true).filter((t) => t.startsWith(HARNESS))]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].map(rel).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of harnessFiles) visit(f, []);
    expect(cycles).toEqual([]);
  });
});

describe('small enough to read', () => {
  const files = sourceFiles(['harness/**/*.ts', 'scripts/**/*.ts']);

  it(`no source file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((f) => ({ f, n: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.n > MAX_FILE_LINES);
    expect(long.map((x) => `${relative(ROOT, x.f)}: ${x.n} lines`)).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const f of files) {
      const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (n: ts.Node): void => {
        if (ts.isFunctionLike(n) && 'body' in n && n.body) {
          const first = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
          const lines = src.getLineAndCharacterOfPosition(n.getEnd()).line - first + 1;
          const name = n.name && ts.isIdentifier(n.name) ? n.name.text : '(anonymous)';
          if (lines > MAX_FUNCTION_LINES) long.push(`${relative(ROOT, f)}:${first + 1} ${name}: ${lines} lines`);
        }
        ts.forEachChild(n, visit);
      };
      visit(src);
    }
    expect(long).toEqual([]);
  });
});
