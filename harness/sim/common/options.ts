// A command-line parser that fails the way boost::program_options does in the real
// programs: `Failed to parse arguments: <boost message>` on stderr, the option list, exit 1.
export interface OptionSpec {
  /** Long name without dashes, e.g. `data-dir`. */
  name: string;
  /** `flag` takes no argument (bool_switch); `value` takes exactly one. */
  kind: 'flag' | 'value';
  /** Validates a value; return false to get boost's "the argument ... is invalid". */
  valid?: (value: string) => boolean;
  /** May be given several times (collected in order). */
  multi?: boolean;
  description?: string;
}

export class OptionError extends Error {}

export interface ParsedOptions {
  values: Map<string, string[]>;
  positional: string[];
  has(name: string): boolean;
  get(name: string): string | undefined;
  getAll(name: string): string[];
}

export const isUnsigned = (v: string): boolean => /^\d+$/.test(v);
export const isPort = (v: string): boolean => isUnsigned(v) && Number(v) <= 65535;

/**
 * Parse `argv` in boost's two passes: first every token is read (an unknown option, a flag given a value, a value
 * missing fail here, whatever comes later), then each option is stored in order (a second occurrence of an option that
 * is not `multi`, then an invalid value fail there). So `--x 1 --x 2 --bogus` fails on `--bogus`, as salviumd does.
 */
export function parseOptions(argv: readonly string[], specs: readonly OptionSpec[]): ParsedOptions {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const given: [OptionSpec, string][] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg.length > 1) throw new OptionError(`unrecognised option '${arg}'`);
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new OptionError(`unrecognised option '${eq === -1 ? arg : arg.slice(0, eq)}'`);
    if (spec.kind === 'flag') {
      if (eq !== -1) throw new OptionError(`option '--${name}' does not take any arguments`);
      given.push([spec, 'true']);
      continue;
    }
    if (eq !== -1) {
      given.push([spec, arg.slice(eq + 1)]);
      continue;
    }
    const next = argv[i + 1];
    // Like boost, a following token that starts with "-" is an option, so the value is missing.
    if (next === undefined || (next.startsWith('-') && next.length > 1)) {
      throw new OptionError(`the required argument for option '--${name}' is missing`);
    }
    given.push([spec, next]);
    i++;
  }
  const values = new Map<string, string[]>();
  for (const [spec, value] of given) {
    const list = values.get(spec.name) ?? [];
    if (list.length > 0 && !spec.multi)
      throw new OptionError(`option '--${spec.name}' cannot be specified more than once`);
    if (spec.kind === 'value' && spec.valid && !spec.valid(value)) {
      throw new OptionError(`the argument ('${value}') for option '--${spec.name}' is invalid`);
    }
    list.push(value);
    values.set(spec.name, list);
  }
  return {
    values,
    positional,
    has: (n) => values.has(n),
    get: (n) => values.get(n)?.[0],
    getAll: (n) => values.get(n) ?? [],
  };
}

export function requireOption(parsed: ParsedOptions, name: string): void {
  if (!parsed.has(name)) throw new OptionError(`the option '--${name}' is required but missing`);
}

/**
 * The option list boost prints after a parse failure, under the first heading of the program's own (`Options:` right
 * under the failure line for salviumd; a blank line, then `General options:` for the wallets).
 */
export function optionList(specs: readonly OptionSpec[], heading = 'Options:'): string {
  const lines = specs.map((s) => {
    const left = `  --${s.name}${s.kind === 'value' ? ' arg' : ''}`;
    return s.description ? `${left.padEnd(40)}${s.description}` : left;
  });
  return [heading, ...lines, ''].join('\n');
}

/** Print boost's parse failure the way the real programs do and exit with code 1. */
export function failParse(err: unknown, specs: readonly OptionSpec[], heading?: string): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`Failed to parse arguments: ${message}\n${optionList(specs, heading)}`);
  process.exit(1);
}

export const flag = (name: string): OptionSpec => ({ name, kind: 'flag' });
export const value = (name: string, valid?: (v: string) => boolean): OptionSpec => ({
  name,
  kind: 'value',
  ...(valid ? { valid } : {}),
});
/** A value option that may be given several times (boost's `std::vector<std::string>` options). */
export const values = (name: string): OptionSpec => ({ name, kind: 'value', multi: true });

/** Options every Monero-family program accepts. */
export const COMMON_OPTIONS: OptionSpec[] = [
  { name: 'help', kind: 'flag', description: 'Produce help message' },
  { name: 'version', kind: 'flag', description: 'Output version information' },
  { name: 'log-file', kind: 'value', description: 'Specify log file' },
  { name: 'log-level', kind: 'value' },
  { name: 'max-log-file-size', kind: 'value', valid: isUnsigned },
  { name: 'max-log-files', kind: 'value', valid: isUnsigned },
  { name: 'config-file', kind: 'value' },
];
