// Read and validate one config file. YAML and JSON are parsed with `yaml` so that every problem, and
// every value's provenance, has a line and column; .mjs/.js files are imported (their default
// export is the config); .ts files only where Node itself can strip types (see loadModule).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';
import { Locator } from '../common/locator.js';
import { formatPath, type PathSegment } from '../common/path.js';
import { scaled } from '../common/timeouts.js';
import { ConfigError, type ConfigProblem } from './errors.js';
import type { SaltnetConfig } from './schema.js';
import { validateConfig, type ConfigIssue } from './validate.js';

export interface LoadedConfig {
  file: string;
  /** Validated, as written: relative paths are not resolved yet (resolve.ts does that). */
  config: SaltnetConfig;
  /** Line and column of a key in the file; undefined for formats without positions (.mjs, .js, .ts). */
  position(path: readonly PathSegment[]): { line: number; col: number } | undefined;
}

type Positions = LoadedConfig['position'];
const noPositions: Positions = () => undefined;

const byPosition = (a: ConfigProblem, b: ConfigProblem): number =>
  (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);

function check(
  file: string,
  data: unknown,
  locate: (path: readonly PathSegment[], at: ConfigIssue['at']) => { line: number; col: number } | undefined,
): SaltnetConfig {
  const { value, problems } = validateConfig(data);
  if (value && problems.length === 0) return value;
  const all = problems.map((p): ConfigProblem => ({
    where: file,
    ...locate(p.path, p.at),
    path: formatPath(p.path) || '(file)',
    message: p.message,
    ...(p.expected ? { expected: p.expected } : {}),
  }));
  throw new ConfigError(all.sort(byPosition));
}

/** check() of a module's default export, which may run code when read (a getter, a Proxy): a throw names the file. */
function checkExport(file: string, data: unknown): SaltnetConfig {
  try {
    return check(file, data, () => undefined);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError([
      {
        where: file,
        path: '(file)',
        message: `reading the config module's default export failed: ${e instanceof Error ? e.message : String(e)}`,
        expected: 'a plain object, e.g. export default defineConfig({ … })',
      },
    ]);
  }
}

function yamlDocument(text: string, file: string): { doc: ReturnType<typeof parseDocument>; loc: Locator } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  return { doc, loc: new Locator(doc, lines, file) };
}

function parseYaml(
  text: string,
  file: string,
): { data: unknown; position: Positions; locate: Parameters<typeof check>[2] } {
  const { doc, loc } = yamlDocument(text, file);
  if (doc.errors.length) {
    // One problem per line: the parser's follow-up errors on the same line add nothing.
    const seen = new Set<number>();
    const problems = doc.errors.flatMap((e): ConfigProblem[] => {
      const { line, col } = loc.pos(e.pos[0]);
      if (seen.has(line)) return [];
      seen.add(line);
      const message =
        e.code === 'MULTIPLE_DOCS'
          ? 'a config file holds one YAML document (remove the "---" separator and what follows)'
          : e.message.replace(/\s+/g, ' ').trim();
      return [
        {
          where: file,
          line,
          col,
          path: '(yaml)',
          message: `YAML: ${message}`,
          expected: e.code === 'DUPLICATE_KEY' ? 'each key once' : 'valid YAML',
        },
      ];
    });
    throw new ConfigError(problems);
  }
  const locate = (path: readonly PathSegment[], at: ConfigIssue['at']): { line: number; col: number } => {
    const { line, col } = loc.locate(path, at);
    return { line, col };
  };
  return { data: toData(doc, loc, file), position: (p) => locate(p, 'key'), locate };
}

/** The document as data; an alias bomb (aliases expanding to millions of nodes) refused with the file's name. */
function toData(doc: ReturnType<typeof parseDocument>, loc: Locator, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    const message = (e as Error).message;
    const bomb = /alias count/i.test(message);
    const { line, col } = loc.pos(0);
    throw new ConfigError([
      {
        where: file,
        line,
        col,
        path: '(yaml)',
        message: bomb
          ? 'YAML: its aliases (*name) expand to too many values (more than 1000 aliases: an "alias bomb"); write the values out'
          : `YAML: ${message}`,
        expected: 'valid YAML',
      },
    ]);
  }
}

/** Line and column of a JSON.parse error (Node 20 says "at position N"; newer Nodes also say "line L column C"). */
function jsonErrorPos(message: string, text: string): { line: number; col: number } | undefined {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), col: Number(lc[2]) };
  const p = /position (\d+)/.exec(message);
  if (!p) return undefined;
  const before = text.slice(0, Number(p[1])).split('\n');
  return { line: before.length, col: before[before.length - 1]!.length + 1 };
}

function parseJson(
  text: string,
  file: string,
): { data: unknown; position: Positions; locate: Parameters<typeof check>[2] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    throw new ConfigError([
      {
        where: file,
        ...jsonErrorPos(message, text),
        path: '(json)',
        message: `JSON: ${message}`,
        expected: 'valid JSON',
      },
    ]);
  }
  // JSON is YAML: the same document model gives every key its line and column.
  const { doc, loc } = yamlDocument(text, file);
  if (doc.errors.length) return { data, position: noPositions, locate: () => undefined };
  const locate = (path: readonly PathSegment[], at: ConfigIssue['at']): { line: number; col: number } => {
    const { line, col } = loc.locate(path, at);
    return { line, col };
  };
  return { data, position: (p) => locate(p, 'key'), locate };
}

/**
 * Whether this Node imports .ts files itself: Node >= 22.6 with --experimental-strip-types (on by
 * default from 22.18 / 23.6). `process.features.typescript` says so from 22.10 on; before that, look
 * for the flag.
 */
export function nodeStripsTypes(): boolean {
  const feature = (process.features as { typescript?: string | false }).typescript;
  if (feature) return true;
  if (feature === false) return false;
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return flags.some((f) => f === '--experimental-strip-types' || f === '--experimental-transform-types');
}

async function loadModule(file: string): Promise<unknown> {
  if (extname(file) === '.ts' && !nodeStripsTypes()) {
    // Decided rather than attempted: a loader that happens to transpile (vitest, tsx) must not make
    // a config work in tests that fails for users of plain Node.
    throw new ConfigError([
      {
        where: file,
        path: '(file)',
        message:
          `Node ${process.version} cannot load a TypeScript config file: Node imports .ts only from 22.6 on, with --experimental-strip-types ` +
          '(on by default from 22.18 and 23.6). Rename it to saltnet.config.mjs (same contents without type annotations; ' +
          "`import { defineConfig } from 'saltnet'` still gives editors the types) or write saltnet.config.yaml",
      },
    ]);
  }
  let mod: { default?: unknown };
  try {
    mod = await settlesInTime(import(pathToFileURL(file).href) as Promise<{ default?: unknown }>, file);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError([
      { where: file, path: '(file)', message: `cannot load the config module: ${(e as Error).message ?? String(e)}` },
    ]);
  }
  if (!('default' in mod) || mod.default === undefined) {
    throw new ConfigError([
      {
        where: file,
        path: '(file)',
        message: 'the config module has no default export',
        expected: 'export default defineConfig({ … })',
      },
    ]);
  }
  return settlesInTime(Promise.resolve(mod.default), file);
}

/** How long a config module may take to load (its top-level awaits, a promise as its default export); scaled. */
export const CONFIG_LOAD_MS = 10_000;

/**
 * `p`, or a ConfigError when it cannot settle: at once when nothing is left that could settle it (the event loop
 * emptied: Node would otherwise exit 0 with nothing done, a silent pass in CI), else after CONFIG_LOAD_MS (scaled: a
 * pending timer, a socket that never answers).
 */
function settlesInTime<T>(p: Promise<T>, file: string): Promise<T> {
  return new Promise<T>((ok, fail) => {
    const problem = (message: string): ConfigError =>
      new ConfigError([{ where: file, path: '(file)', message, expected: 'a module that finishes loading' }]);
    const never = (): void =>
      fail(problem('the config module never finishes loading: it awaits a promise that nothing can settle'));
    const ms = scaled(CONFIG_LOAD_MS);
    // Unreferenced: it must not be what keeps the process alive, or an empty event loop would never be seen.
    const timer = setTimeout(
      () =>
        fail(
          problem(
            `the config module has not finished loading after ${ms / 1000} s (a top-level await that never ends?)`,
          ),
        ),
      ms,
    ).unref();
    process.once('beforeExit', never);
    const done = (): void => {
      clearTimeout(timer);
      process.off('beforeExit', never);
    };
    p.then(
      (v) => {
        done();
        ok(v);
      },
      (e: unknown) => {
        done();
        fail(e);
      },
    );
  });
}

/**
 * Read, parse and validate a config file; throws a ConfigError naming the file, line, column and key of every problem.
 */
export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  const ext = extname(file);
  if (['.mjs', '.js', '.ts'].includes(ext)) {
    const data = await loadModule(file);
    return { file, config: checkExport(file, data), position: noPositions };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a folder' : err.message;
    throw new ConfigError([{ where: file, path: '(file)', message: `cannot read the config file: ${why}` }]);
  }
  if (ext === '.yaml' || ext === '.yml' || ext === '.json') {
    const { data, position, locate } = ext === '.json' ? parseJson(text, file) : parseYaml(text, file);
    return { file, config: check(file, data, locate), position };
  }
  throw new ConfigError([
    {
      where: file,
      path: '(file)',
      message: `unknown config file type ${ext || '(no extension)'}`,
      expected: '.yaml, .yml, .json, .mjs, .js or .ts',
    },
  ]);
}
