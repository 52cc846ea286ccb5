// A team's saltnet.config.{yaml,…} under every command: a yargs middleware that resolves the
// configuration (defaults < config file < environment < flags, harness/config) and puts each
// resolved value into the command's arguments unless the user typed that flag. Notices (an
// environment variable overriding the config file) go to stderr: nothing is overridden silently.
import type { Arguments } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { KEYS } from '../config/schema.js';
import { camel, givenFlags } from '../config/yargs.js';
import { resolveConfig } from '../config/resolve.js';
import { setTimeoutFactor } from '../common/timeouts.js';

/** Commands that read their own configuration (doctor reports a broken file instead of failing). */
const SELF_CONFIGURED = new Set(['doctor']);

export async function applyConfig(argv: Arguments): Promise<void> {
  if (SELF_CONFIGURED.has(String(argv._[0]))) return;
  const given = givenFlags(argv as Record<string, unknown>, hideBin(process.argv));
  const cfg = await resolveConfig({ argv: given, env: process.env });
  for (const n of cfg.notices) process.stderr.write(`saltnet: ${n}\n`);
  const v = cfg.values;
  // Every key with a flag of its own (KEYS, config/schema.ts), as that flag's argument; run.* from v.run.
  for (const k of KEYS) {
    if (!k.flag || k.key === 'timeoutFactor') continue;
    const name = camel(k.flag);
    const value = k.key.startsWith('run.')
      ? (v.run as Record<string, unknown>)[k.key.slice(4)]
      : (v as unknown as Record<string, unknown>)[k.key];
    if (value !== undefined && !(name in given)) argv[name] = value;
  }
  setTimeoutFactor(v.timeoutFactor);
}
