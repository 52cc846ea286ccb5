// The shape of the code, checked (docs/architecture.md says why): dependencies between the folders of
// harness/ point one way, down; the simulator is a program of its own; no import cycle; and every
// source file and function stays small enough to read.
import { existsSync, readFileSync } from 'node:fs';
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
  randomx: 1, // saltnet's own RandomX miner: librandomx through koffi, the dataset kept in the cache folder
  snapshot: 2,
  coin: 2, // each chain's facts: backends, coins, amounts, transaction types
  install: 2,
  testnet: 3,
  ui: 4, // the explorer: a page over a running testnet's RPCs (the control endpoint and the CLI start it)
  pool: 4, // testnets started ahead, handed out by acquire/release (the runner's fresh runs, the vitest integration)
  config: 4,
  metrics: 4, // a running testnet's metrics (prom-client), served by the control endpoint through an operation
  load: 4, // traffic from wallets funded ahead: the load operation's generator
  operations: 5, // the operations of a running testnet, each defined once with its faces
  scenario: 6, // the scenario language (an operation's step face is one of its step kinds)
  control: 6, // the control endpoint that serves the operations
  runner: 7, // running scenario files on testnets
  diff: 8,
  vitest: 8,
  record: 9, // above diff: it checks answers with the diff's table of volatile values
  fuzz: 9, // above diff: its programs run through diffScenarios
  cli: 10,
  '.': 11, // harness/index.ts and harness/limits.ts (see below)
};
/** Top-level modules that are leaves (constants every layer may read). */
const LEAF_MODULES = new Set(['limits.ts']);
/** The one module of the harness the simulator may import: the HTTP Digest code both sides speak. */
const SIM_MAY_IMPORT = new Set(['digest/digest.ts']);
/** Lines of code (see codeLines below). */
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const sourceFiles = (globs: string[]): string[] => globSync(globs, { cwd: ROOT, absolute: true }).sort();
const harnessFiles = sourceFiles(['harness/**/*.ts']);

/**
 * Relative imports of a file, resolved to .ts paths: static, dynamic and re-exports, type-only
 * ones (`import type`, `import { type X }`, `export type … from`, `typeof import(…)`) included.
 */
function importsOf(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const add = (spec: ts.Expression | undefined): void => {
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.'))
      out.push(resolve(dirname(file), spec.text.replace(/\.js$/, '.ts')));
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) add(n.moduleSpecifier);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) add(n.arguments[0]);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) add(n.argument.literal);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

/**
 * The import cycles of a graph: each strongly connected component of more than one file (or a file
 * that imports itself), with its files and one loop through them that shows how it closes.
 */
function importCycles(graph: Map<string, string[]>): { files: string[]; loop: string[] }[] {
  // Tarjan's algorithm (recursive: the import chains of the harness are a few dozen files deep).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (f: string): void => {
    index.set(f, index.size);
    low.set(f, index.get(f)!);
    stack.push(f);
    onStack.add(f);
    for (const t of graph.get(f) ?? []) {
      if (!index.has(t)) {
        connect(t);
        low.set(f, Math.min(low.get(f)!, low.get(t)!));
      } else if (onStack.has(t)) low.set(f, Math.min(low.get(f)!, index.get(t)!));
    }
    if (low.get(f) !== index.get(f)) return;
    const component: string[] = [];
    for (let t = stack.pop()!; ; t = stack.pop()!) {
      onStack.delete(t);
      component.push(t);
      if (t === f) break;
    }
    if (component.length > 1 || (graph.get(f) ?? []).includes(f)) components.push(component.sort());
  };
  for (const f of graph.keys()) if (!index.has(f)) connect(f);
  return components.map((files) => ({ files, loop: loopThrough(graph, new Set(files), files[0]!) }));
}

/** The shortest loop from `start` back to itself inside `within` (breadth first). */
function loopThrough(graph: Map<string, string[]>, within: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const t of graph.get(queue[i]!) ?? []) {
      if (!within.has(t)) continue;
      if (t === start) {
        const loop = [start];
        for (let at = queue[i]!; at !== start; at = cameFrom.get(at)!) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!cameFrom.has(t)) {
        cameFrom.set(t, queue[i]!);
        queue.push(t);
      }
    }
  }
  return [start];
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

  it('no import cycle between files, type-only imports included', () => {
    const graph = new Map(harnessFiles.map((f) => [f, importsOf(f).filter((t) => t.startsWith(HARNESS))]));
    const cycles = importCycles(graph).map(
      (c) => `${c.files.length} files: ${c.files.map(rel).join(', ')}\n    e.g. ${c.loop.map(rel).join(' → ')}`,
    );
    expect(cycles, `import cycles:\n  ${cycles.join('\n  ')}`).toEqual([]);
  });
});

describe('one definition of each shared helper', () => {
  /** The one module that defines the plain-object check; harness/sim, a program of its own, keeps its own. */
  const PLAIN_OBJECT_HOME = 'harness/common/plain-object.ts';
  const PLAIN_OBJECT_NAMES = new Set(['isPlainObject', 'isObj', 'isPlainObj', 'isRecord']);

  /**
   * Whether a function is the plain-object check under another name: one parameter, a type guard or a chain of `&&`,
   * and `typeof p` is 'object' and not an array.
   */
  const isPlainObjectCheck = (fn: ts.SignatureDeclaration & { body?: ts.Node }, src: ts.SourceFile): boolean => {
    const p = fn.parameters.length === 1 ? fn.parameters[0]!.name : undefined;
    if (!p || !ts.isIdentifier(p) || !fn.body) return false;
    const guard = fn.type !== undefined && ts.isTypePredicateNode(fn.type);
    const conjunction =
      ts.isBinaryExpression(fn.body) && fn.body.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken;
    if (!guard && !conjunction) return false;
    const body = fn.body.getText(src).replace(/\s+/g, ' ');
    return body.includes(`typeof ${p.text} `) && body.includes("'object'") && body.includes(`Array.isArray(${p.text})`);
  };

  it('the plain-object check is defined once, in harness/common/plain-object.ts', () => {
    const copies: string[] = [];
    const files = sourceFiles(['harness/**/*.ts', 'scripts/**/*.ts']).filter(
      (f) => !relative(ROOT, f).startsWith('harness/sim/') && relative(ROOT, f) !== PLAIN_OBJECT_HOME,
    );
    for (const f of files) {
      const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
      const where = (n: ts.Node, what: string): string =>
        `${relative(ROOT, f)}:${src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1} ${what}`;
      const visit = (n: ts.Node): void => {
        const named =
          (ts.isFunctionDeclaration(n) || ts.isVariableDeclaration(n)) && n.name && ts.isIdentifier(n.name)
            ? n.name.text
            : undefined;
        if (named && PLAIN_OBJECT_NAMES.has(named)) return void copies.push(where(n, named));
        if (ts.isFunctionLike(n) && isPlainObjectCheck(n as ts.SignatureDeclaration & { body?: ts.Node }, src))
          copies.push(where(n, 'a plain-object check'));
        ts.forEachChild(n, visit);
      };
      visit(src);
    }
    expect(copies, `import isPlainObject from ${PLAIN_OBJECT_HOME} instead:\n  ${copies.join('\n  ')}`).toEqual([]);
  });
});

describe('docs/architecture.md says what the code is', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  /** The layer table's rows: `| 3 | \`testnet/\` | … |`. */
  const rows = [...doc.matchAll(/^\| (\d+) \| `([^`]+)` \| (.*) \|$/gm)].map((m) => ({
    layer: Number(m[1]),
    folder: m[2]!.replace(/\/$/, ''),
    text: m[3]!,
  }));

  it('its table gives every folder the layer the test gives it', () => {
    const documented = Object.fromEntries(rows.map((r) => [r.folder === 'index.ts' ? '.' : r.folder, r.layer]));
    expect(documented).toEqual(LAYERS);
  });

  it('every file its table names is there', () => {
    const missing = rows.flatMap((r) =>
      [...r.text.matchAll(/`([\w./-]+\.ts)`/g)]
        .map((m) => m[1]!)
        .filter((f) => !existsSync(join(HARNESS, r.folder === 'index.ts' ? '.' : r.folder, f)))
        .map((f) => `${r.folder}/${f}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('a public API a user can hold', () => {
  /** The entry points a user imports: `saltnet` and `saltnet/vitest`. */
  const ENTRY_POINTS = ['harness/index.ts', 'harness/vitest/index.ts'];

  it('the entry points rename nothing: each name is the one its module gives it', () => {
    const renames: string[] = [];
    for (const rel of ENTRY_POINTS) {
      const src = ts.createSourceFile(rel, readFileSync(join(ROOT, rel), 'utf8'), ts.ScriptTarget.Latest, true);
      for (const st of src.statements)
        if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause))
          for (const e of st.exportClause.elements)
            if (e.propertyName) renames.push(`${rel}: ${e.propertyName.getText(src)} as ${e.name.text}`);
    }
    expect(renames).toEqual([]);
  });

  it('no name is exported by two modules of the harness (the simulator, a program of its own, aside)', () => {
    const declaredIn = new Map<string, string[]>();
    for (const f of harnessFiles.filter((f) => !relative(ROOT, f).startsWith('harness/sim/'))) {
      const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
      const add = (name: string): void =>
        void declaredIn.set(name, [...(declaredIn.get(name) ?? []), relative(ROOT, f)]);
      for (const st of src.statements) {
        const exported =
          ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported) continue;
        if (ts.isVariableStatement(st))
          for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text);
        const named = st as ts.Statement & { name?: ts.Node };
        if (!ts.isVariableStatement(st) && named.name && ts.isIdentifier(named.name)) add(named.name.text);
      }
    }
    const twice = [...declaredIn]
      .filter(([, files]) => new Set(files).size > 1) // overloads are one name of one module
      .map(([n, files]) => `${n}: ${files.join(', ')}`);
    expect(twice).toEqual([]);
  });
});

/** A JSDoc node (a comment TypeScript keeps in the tree). */
const isDoc = (n: ts.Node): boolean => n.kind >= ts.SyntaxKind.FirstJSDocNode && n.kind <= ts.SyntaxKind.LastJSDocNode;

/** The lines of `root` that hold a token of code: comments and blank lines do not count (`skip` leaves out more). */
function codeLines(src: ts.SourceFile, root: ts.Node, skip?: (n: ts.Node) => boolean): number {
  const lines = new Set<number>();
  const visit = (n: ts.Node): void => {
    if (isDoc(n) || skip?.(n)) return;
    if (n.getChildCount(src) > 0) return void n.getChildren(src).forEach(visit);
    if (n.kind === ts.SyntaxKind.EndOfFileToken) return;
    const last = src.getLineAndCharacterOfPosition(n.getEnd()).line;
    for (let l = src.getLineAndCharacterOfPosition(n.getStart(src)).line; l <= last; l++) lines.add(l);
  };
  visit(root);
  return lines.size;
}

/** A declarative table: a top-level constant whose value is an object or array literal (`as const` or not). */
function isTable(n: ts.Node): boolean {
  if (!ts.isVariableStatement(n)) return false;
  return n.declarationList.declarations.every((d) => {
    let e = d.initializer;
    while (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)))
      e = e.expression;
    return e !== undefined && (ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e));
  });
}

describe('small enough to read (lines of code: comments, blank lines and declarative tables do not count)', () => {
  const parsed = sourceFiles(['harness/**/*.ts', 'scripts/**/*.ts']).map((f) =>
    ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true),
  );

  it(`no source file over ${MAX_FILE_LINES} lines of code`, () => {
    const long = parsed
      .map((src) => ({ f: src.fileName, n: codeLines(src, src, (n) => n.parent === src && isTable(n)) }))
      .filter((x) => x.n > MAX_FILE_LINES);
    expect(long.map((x) => `${relative(ROOT, x.f)}: ${x.n} lines of code`)).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines of code`, () => {
    const long: string[] = [];
    for (const src of parsed) {
      const visit = (n: ts.Node): void => {
        if (ts.isFunctionLike(n) && 'body' in n && n.body) {
          const lines = codeLines(src, n);
          const name = n.name && ts.isIdentifier(n.name) ? n.name.text : '(anonymous)';
          const at = src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1;
          if (lines > MAX_FUNCTION_LINES)
            long.push(`${relative(ROOT, src.fileName)}:${at} ${name}: ${lines} lines of code`);
        }
        ts.forEachChild(n, visit);
      };
      visit(src);
    }
    expect(long).toEqual([]);
  });

  it('counts code, not comments, blank lines or tables', () => {
    const src = ts.createSourceFile(
      'x.ts',
      '// a comment\n/** a doc */\nexport const T = {\n  a: 1,\n};\n\nfunction f(): number {\n  // why\n  return 1;\n}\n',
      ts.ScriptTarget.Latest,
      true,
    );
    expect(codeLines(src, src)).toBe(6);
    expect(codeLines(src, src, (n) => n.parent === src && isTable(n))).toBe(3);
  });
});
