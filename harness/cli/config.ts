// A team's saltnet.config.{yaml,…} under every command: a yargs middleware that resolves the
// configuration (defaults < config file < environment < flags, harness/config) and puts each
// resolved value into the command's arguments unless the user typed that flag. Notices (an
// environment variable overriding the config file) go to stderr: nothing is overridden silently.
import type { Arguments } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { givenFlags } from '../config/yargs.js';
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
  const set = (name: string, value: unknown): void => {
    if (value !== undefined && !(name in given)) argv[name] = value;
  };
  set('backend', v.backend);
  set('binDir', v.binDir);
  set('difficulty', v.difficulty);
  set('height', v.height);
  set('unlocked', v.unlocked);
  set('workdir', v.workdir);
  set('cacheDir', v.cacheDir);
  set('login', v.login);
  set('walletCreation', v.walletCreation);
  set('threads', v.threads);
  set('snapshots', v.snapshots);
  set('isolation', v.run.isolation);
  set('workers', v.run.workers);
  set('reporter', v.run.reporter);
  set('artifacts', v.run.artifacts);
  set('bail', v.run.bail);
  if (v.run.files && !('files' in given)) argv.files = v.run.files;
  setTimeoutFactor(v.timeoutFactor);
}
