// Merge built-in defaults < config file < environment < command-line flags, recording where each
// value came from. When the environment overrides a value the config file sets, say so (a notice
// the CLI prints to stderr): a team's shared file must never be overridden silently by a variable
// left in someone's shell or CI settings.
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { resolveCacheDir } from '../common/cache-dir.js';
import { ConfigError, type ConfigProblem } from './errors.js';
import { findConfigFile, type FoundConfig } from './find.js';
import { loadConfigFile, type LoadedConfig } from './load.js';
import { parseNumberText } from './numbers.js';
import { KEYS, type ConfigKey, type ConfigValues, type KeySpec } from './schema.js';
import { validateValue } from './validate.js';

/** Where a value came from. */
export type Source =
  | { kind: 'default' }
  | { kind: 'file'; file: string; line?: number; col?: number }
  | { kind: 'env'; name: string }
  /** `name` as typed: `--bin-dir`, `--no-snapshots`, or `<files..>` for the positional. */
  | { kind: 'flag'; name: string };

/** `default`, `config file /x/saltnet.config.yaml:3`, `env SALTNET_BIN_DIR`, `flag --bin-dir`. */
export function formatSource(s: Source): string {
  switch (s.kind) {
    case 'default':
      return 'default';
    case 'file':
      return `config file ${s.file}${s.line !== undefined ? `:${s.line}` : ''}`;
    case 'env':
      return `env ${s.name}`;
    case 'flag':
      return s.name.startsWith('-') ? `flag ${s.name}` : `argument ${s.name}`;
  }
}

export interface ResolveOptions {
  /** The table of keys to resolve (default KEYS; a test adds a made-up row to show a new key needs nothing else). */
  keys?: readonly KeySpec[];
  /**
   * Where to start looking for the config file, and what relative flags and env paths mean (default: process.cwd()).
   */
  cwd?: string;
  /**
   * The flags the user actually gave (see givenFlags() in yargs.ts), keyed as yargs does (camelCase:
   * `binDir`) or kebab-case; `config` for `--config`. A value here always wins, so defaults must not be in it.
   */
  argv?: Record<string, unknown>;
  /** The environment (default: process.env). */
  env?: Record<string, string | undefined>;
}

export interface ResolvedConfig {
  values: ConfigValues;
  sources: Record<ConfigKey, Source>;
  /** The config file used, absolute; undefined when there is none. */
  file?: string;
  /** How the file was chosen: `flag --config`, `env SALTNET_CONFIG` or `search`. */
  fileVia?: FoundConfig['via'];
  /** One line per environment variable that overrides a value from the config file (print to stderr). */
  notices: string[];
}

const camel = (kebab: string): string => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const expandHome = (p: string): string =>
  p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;

/** Relative paths (and globs, `!negated` ones too) resolved against `base`. */
function resolvePaths(spec: KeySpec, v: unknown, base: string, home: boolean): unknown {
  const one = (p: string): string => {
    const neg = spec.path === 'globs' && p.startsWith('!');
    const body = home ? expandHome(neg ? p.slice(1) : p) : neg ? p.slice(1) : p;
    return `${neg ? '!' : ''}${isAbsolute(body) ? body : resolve(base, body)}`;
  };
  if (spec.path === 'path' && typeof v === 'string') return one(v);
  if (spec.path === 'globs' && Array.isArray(v)) return v.map((g) => one(String(g)));
  return v;
}

function getPath(o: unknown, key: ConfigKey): unknown {
  let v = o;
  for (const seg of key.split('.'))
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[seg] : undefined;
  return v;
}

function setPath(o: Record<string, unknown>, key: ConfigKey, value: unknown): void {
  const segs = key.split('.');
  let cur = o;
  for (const seg of segs.slice(0, -1)) cur = (cur[seg] ??= {}) as Record<string, unknown>;
  cur[segs[segs.length - 1]!] = value;
}

/**
 * Environment values are text: numbers as the command line reads them (numbers.ts), else as written, then as a boolean.
 */
function fromEnvText(spec: KeySpec, text: string): { value?: unknown; problem?: string } {
  if (spec.number) {
    const n = parseNumberText(text, spec.number);
    if (!('problem' in n)) return validateValue(spec, n.value);
    // "not a number" gets what would do; the other problems (range, exponent) already say it.
    return { problem: /is not|^needs/.test(n.problem) ? `${n.problem} (expected ${spec.expected})` : n.problem };
  }
  const asIs = validateValue(spec, text);
  if (!asIs.problem) return asIs;
  const t = text.trim();
  const coerced = /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t === 'true' ? true : t === 'false' ? false : undefined;
  if (coerced === undefined) return asIs;
  const r = validateValue(spec, coerced);
  return r.problem ? asIs : r;
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface Layer {
  value: unknown;
  source: Source;
}

/** What every key's layers are read from. */
interface Inputs {
  cwd: string;
  env: NodeJS.ProcessEnv;
  flagValue: (name: string) => unknown;
  loaded: LoadedConfig | undefined;
  builtIn: Partial<Record<ConfigKey, unknown>>;
}

/**
 * One key's layers, lowest first: its default, the config file, the environment, the flag. A value that does not
 * validate is a problem instead of a layer. `file` is the config file's layer, when it has one.
 */
function layersOf(spec: KeySpec, i: Inputs, problems: ConfigProblem[]): { layers: Layer[]; file?: Layer } {
  const layers: Layer[] = [];
  const def = i.builtIn[spec.key] ?? spec.default;
  layers.push({
    value: def === undefined ? undefined : resolvePaths(spec, def, i.cwd, false),
    source: { kind: 'default' },
  });

  let file: Layer | undefined;
  const fromFile = i.loaded ? getPath(i.loaded.config, spec.key) : undefined;
  if (i.loaded && fromFile !== undefined) {
    const pos = i.loaded.position(spec.key.split('.'));
    file = {
      value: resolvePaths(spec, fromFile, dirname(i.loaded.file), true),
      source: { kind: 'file', file: i.loaded.file, ...pos },
    };
    layers.push(file);
  }

  const envText = spec.env ? i.env[spec.env] : undefined;
  if (spec.env && envText !== undefined && envText.trim() !== '') {
    const r = fromEnvText(spec, envText);
    if (r.problem) problems.push({ where: `env ${spec.env}`, path: spec.key, message: r.problem });
    else layers.push({ value: resolvePaths(spec, r.value, i.cwd, false), source: { kind: 'env', name: spec.env } });
  }

  const given = spec.flag ? i.flagValue(spec.flag) : undefined;
  if (spec.flag && given !== undefined && !(spec.positional && Array.isArray(given) && given.length === 0)) {
    const name = spec.positional
      ? `<${spec.flag}..>`
      : given === false && spec.schema.safeParse(true).success
        ? `--no-${spec.flag}`
        : `--${spec.flag}`;
    const r = validateValue(spec, given);
    if (r.problem) problems.push({ where: `flag ${name}`, path: spec.key, message: r.problem });
    else layers.push({ value: resolvePaths(spec, r.value, i.cwd, false), source: { kind: 'flag', name } });
  }
  return { layers, ...(file ? { file } : {}) };
}

/** The notice when an environment variable overrides a different value the config file gives. */
function overrideNotice(spec: KeySpec, winner: Layer, file: Layer | undefined, cwd: string): string | undefined {
  if (winner.source.kind !== 'env' || !file || same(file.value, winner.value)) return undefined;
  const f = file.source as Extract<Source, { kind: 'file' }>;
  const where = `${relative(cwd, f.file) || f.file}${f.line !== undefined ? `:${f.line}` : ''}`;
  return `${winner.source.name} overrides ${spec.key} from ${where} (${show(file.value)} → ${show(winner.value)})`;
}

/**
 * The configuration for a command: built-in defaults < config file < environment < flags, with the
 * source of every value. Reads the config file (found from `cwd` upwards, or `--config` /
 * SALTNET_CONFIG); otherwise pure. Throws a ConfigError listing every problem with its place.
 */
export async function resolveConfig(opts: ResolveOptions = {}): Promise<ResolvedConfig> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const env = opts.env ?? process.env;
  const argv = opts.argv ?? {};
  const flagValue = (name: string): unknown => argv[camel(name)] ?? argv[name];

  const configFlag = flagValue('config');
  if (configFlag === '')
    throw new ConfigError([
      { where: 'flag --config', path: '(file)', message: '--config needs a file name', expected: '--config <file>' },
    ]);
  const found = findConfigFile({
    cwd,
    flag: typeof configFlag === 'string' ? configFlag : undefined,
    env: env.SALTNET_CONFIG || undefined,
  });
  const loaded: LoadedConfig | undefined = found ? await loadConfigFile(found.file) : undefined;
  const builtIn: Partial<Record<ConfigKey, unknown>> = {
    cacheDir: resolveCacheDir({ env: { ...env, SALTNET_CACHE_DIR: undefined } }),
  };
  const inputs: Inputs = { cwd, env, flagValue, loaded, builtIn };

  const values: Record<string, unknown> = {};
  const sources = {} as Record<ConfigKey, Source>;
  const notices: string[] = [];
  const problems: ConfigProblem[] = [];
  for (const spec of opts.keys ?? KEYS) {
    const { layers, file } = layersOf(spec, inputs, problems);
    const winner = layers[layers.length - 1]!;
    sources[spec.key] = winner.source;
    if (winner.value !== undefined) setPath(values, spec.key, winner.value);
    const notice = overrideNotice(spec, winner, file, cwd);
    if (notice) notices.push(notice);
  }
  if (problems.length) throw new ConfigError(problems);
  values.run ??= {};

  return {
    values: values as unknown as ConfigValues,
    sources,
    ...(found ? { file: found.file, fileVia: found.via } : {}),
    notices,
  };
}
