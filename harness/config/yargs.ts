// Connecting yargs to resolveConfig. yargs fills in declared defaults, so an option that has one
// always looks "given" and would beat the config file. Options that the config can set are therefore
// declared WITHOUT a yargs default (their defaults live in schema.ts and are applied by
// resolveConfig), and givenFlags() keeps only what the user passed.
import type { Options } from 'yargs';
import { z } from 'zod';
import { numberOption } from './numbers.js';
import { KEY_SPECS, KEYS, type ConfigKey, type KeySpec } from './schema.js';
import { parseUnlockedText } from './unlocked.js';

/** The `--config` option, for a command's builder (or as a global option). */
export const CONFIG_OPTION = {
  type: 'string',
  describe:
    'config file (default: the nearest saltnet.config.{yaml,yml,json,mjs,js,ts} from here up to the git root; or SALTNET_CONFIG)',
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
  const typed = rawArgs
    ? new Set(rawArgs.filter((a) => a.startsWith('--')).map((a) => camel(a.slice(2).split('=')[0]!)))
    : undefined;
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

/**
 * The yargs option of a config key, derived from its row in KEYS: numbers parsed by numbers.ts,
 * choices from the key's enum, booleans and strings with the key's default, the environment
 * variable and what "unset" means in the help text. `describe` replaces the row's text where a
 * command gives the key a meaning of its own (e.g. `diff --difficulty`).
 */
export function configOption(key: ConfigKey | KeySpec, describe?: string): Options {
  const k = typeof key === 'string' ? KEY_SPECS.get(key) : key;
  if (!k?.flag) throw new Error(`config key ${typeof key === 'string' ? key : key.key} has no flag`);
  const notes = [k.env ? `or ${k.env}` : '', k.default === undefined && k.unset ? `default: ${k.unset}` : ''].filter(
    Boolean,
  );
  const text = `${describe ?? k.describe}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  if (k.number) return numberOption(k.flag, k.number, text);
  if (k.key === 'unlocked')
    return { type: 'string', describe: text, coerce: (v: unknown) => parseUnlockedText('--unlocked', v) };
  const dflt = k.default === undefined ? {} : { default: k.default };
  if (k.choices) return { choices: [...k.choices()], describe: text, ...dflt };
  if (k.schema instanceof z.ZodEnum) return { choices: k.schema.options as string[], describe: text, ...dflt };
  return { type: k.schema instanceof z.ZodBoolean ? 'boolean' : 'string', describe: text, ...dflt };
}
