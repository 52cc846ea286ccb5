// Connecting yargs to resolveConfig. yargs fills in declared defaults, so an option that has one
// always looks "given" and would beat the config file. Options that the config can set are therefore
// declared WITHOUT a yargs default (their defaults live in schema.ts and are applied by
// resolveConfig), and givenFlags() keeps only what the user passed.
import { KEYS } from './schema.js';

/** The `--config` option, for a command's builder (or as a global option). */
export const CONFIG_OPTION = {
  type: 'string',
  describe: 'config file (default: the nearest saltnet.config.{yaml,yml,json,mjs,js,ts} from here up to the git root; or SALTNET_CONFIG)',
} as const;

/** A flag's name as yargs reports it: bin-dir → binDir. */
export const camel = (kebab: string): string => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Flag names (camelCase, as yargs reports them) that map to config keys, plus `config`. */
export const CONFIG_FLAGS: readonly string[] = ['config', ...KEYS.flatMap((k) => (k.flag ? [camel(k.flag)] : []))];

/**
 * The flags the user gave, for resolveConfig({ argv }): the config-related entries of yargs' argv
 * that are not undefined. With `rawArgs` (hideBin(process.argv)), an option must also appear on the
 * command line (`--bin-dir`, `--bin-dir=…`, `--binDir`, `--no-snapshots`): that guards against a
 * yargs default declared by mistake. Positional arguments (`run <files..>`) count when non-empty.
 */
export function givenFlags(argv: Record<string, unknown>, rawArgs?: readonly string[]): Record<string, unknown> {
  const typed = rawArgs ? new Set(rawArgs.filter((a) => a.startsWith('--')).map((a) => camel(a.slice(2).split('=')[0]!))) : undefined;
  const out: Record<string, unknown> = {};
  for (const name of CONFIG_FLAGS) {
    const v = argv[name];
    if (v === undefined) continue;
    const spec = KEYS.find((k) => k.flag && camel(k.flag) === name);
    if (spec?.positional) {
      if (Array.isArray(v) && v.length === 0) continue;
    } else if (typed && !typed.has(name) && !typed.has(`no${name[0]!.toUpperCase()}${name.slice(1)}`)) continue;
    out[name] = v;
  }
  return out;
}
