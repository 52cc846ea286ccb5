// `saltnet record [--out FILE] [--wallet NAME[=AMOUNT]]… [testnet options] [--run ID] [-- COMMAND …]`:
// a testnet behind recording proxies; the program under test talks to the proxies (COMMAND gets
// their URLs in its environment), and when it exits — or at Ctrl-C — the session is written as a
// scenario file that replays it.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { execa } from 'execa';
import type { Argv, CommandModule } from 'yargs';
import { parseUnlockedText, unlockedAtomic } from '../config/unlocked.js';
import { MAX_WALLETS } from '../scenario/bounds.js';
import { NAME_RE } from '../scenario/schema/vocabulary.js';
import { recordSession, type RecordSession, type RecordWalletOption } from '../record/session.js';
import { recordingToScenario } from '../record/write.js';
import { backendSpec, fundingAsset } from '../coin/backends.js';
import type { SessionRecording } from '../record/types.js';
import { interrupted } from '../process/interrupt.js';
import { addressAt } from '../testnet/mining/mining.js';
import { interruptible } from './interruptible.js';
import { pickRun, runInfo } from './runs.js';
import { testnetOptions, toTestnetOptions, type TestnetArgs } from './testnet-options.js';
import { writeOutputFile } from '../common/output-file.js';
import { lockOutput } from '../process/output-lock.js';
import { progressLog } from './progress-log.js';

interface RecordArgs extends TestnetArgs {
  out?: string;
  force: boolean;
  wallet?: string[];
  run?: string;
  name?: string;
  _: (string | number)[];
}

/** `bob` or `bob=10` or `bob=10 SAL1`: a wallet besides main and what it is funded with. */
export function parseWalletOption(text: string, backend: TestnetArgs['backend']): RecordWalletOption {
  const [name = '', amount] = text.split('=', 2);
  if (!NAME_RE.test(name))
    throw new Error(
      `--wallet ${JSON.stringify(text)}: "${name}" is not a wallet name (letters, digits and _, not starting with a digit), e.g. --wallet bob or --wallet bob=10`,
    );
  if (name === 'main') throw new Error('--wallet main: every recording has a main wallet already; name the others');
  if (amount === undefined) return { name };
  const coin = backendSpec(backend === 'auto' ? 'salvium' : backend);
  const atomic = unlockedAtomic(parseUnlockedText(`--wallet ${name}`, amount), backend);
  return { name, unlocked: { [fundingAsset(coin)]: atomic } };
}

function outFile(a: RecordArgs): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const file = resolve(a.out ?? `recording-${stamp}.yaml`);
  if (!/\.ya?ml$/i.test(file)) throw new Error(`--out ${a.out}: a scenario file ends in .yaml or .yml`);
  if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory())
    throw new Error(`--out ${a.out}: the folder ${dirname(file)} does not exist`);
  if (existsSync(file) && !a.force)
    throw new Error(`--out ${a.out ?? file}: the file exists; give --force to replace it, or another --out`);
  return file;
}

/** The environment a recorded program gets: the proxied endpoints and the wallets' addresses. */
export function recordEnv(s: RecordSession): Record<string, string> {
  const env: Record<string, string> = { SALTNET_DAEMON_URL: s.daemonUrl };
  const { spec, height } = s;
  for (const w of s.wallets) {
    const prefix = w.name === 'main' ? 'SALTNET_WALLET' : `SALTNET_WALLET_${w.name.toUpperCase()}`;
    env[`${prefix}_URL`] = s.walletUrls.get(w.name)!;
    env[`${prefix}_ADDRESS`] = addressAt(spec, w.addresses, height);
  }
  // Mining to this address changes no wallet of the session, as a replay's `mine` steps do not.
  if (s.minerAddresses) env.SALTNET_MINER_ADDRESS = addressAt(spec, s.minerAddresses, height);
  return env;
}

async function session(a: RecordArgs): Promise<RecordSession> {
  const log = progressLog;
  if (a.run !== undefined) {
    const r = pickRun(a.run);
    const info = runInfo(r);
    if (!info.daemon || !info.wallet || !info.addresses || !info.backend)
      throw new Error(`run ${r.runId} is still starting; try again when \`saltnet up\` says it is up`);
    if ((info as { recording?: boolean }).recording)
      throw new Error(`run ${r.runId} is a recording session itself; record on a \`saltnet up\``);
    return recordSession({
      attach: {
        daemon: info.daemon,
        wallet: info.wallet,
        addresses: info.addresses,
        backend: info.backend,
        ...(info.minerAddresses ? { minerAddresses: info.minerAddresses } : {}),
        ...(info.workdir ? { workdir: info.workdir } : {}),
      },
      log,
    });
  }
  const wallets = (a.wallet ?? []).map((w) => parseWalletOption(w, a.backend));
  if (new Set(wallets.map((w) => w.name)).size !== wallets.length)
    throw new Error('--wallet: each wallet is named once');
  if (wallets.length > MAX_WALLETS)
    throw new Error(`--wallet: at most ${MAX_WALLETS} wallets besides main (as in a scenario)`);
  const { unlocked, ...opts } = toTestnetOptions(a);
  return recordSession({ testnet: { ...opts, log }, ...(unlocked !== undefined ? { unlocked } : {}), wallets, log });
}

/** The session as a scenario file, written atomically; with nothing recorded, nothing written and the reason said. */
function writeScenario(rec: SessionRecording, file: string, name: string | undefined): void {
  const requests = rec.events.filter((e) => e.kind === 'call').length;
  if (rec.events.every((e) => e.kind === 'skipped')) {
    const skipped = rec.events.length;
    process.stderr.write(
      `saltnet record: nothing was recorded: ${skipped ? (skipped === 1 ? 'the one request cannot be replayed by a scenario' : `none of the ${skipped} requests can be replayed by a scenario`) : 'no request reached the proxies'} and no block was mined, so no scenario was written to ${file} (it would have no steps)\n`,
    );
    return;
  }
  const { text, steps } = recordingToScenario(rec, { file, ...(name ? { name } : {}) });
  writeOutputFile('--out', file, text);
  process.stderr.write(
    `saltnet record: wrote ${file} (${steps} step${steps === 1 ? '' : 's'} from ${requests} request${requests === 1 ? '' : 's'}); replay it with: saltnet run ${file}\n`,
  );
}

async function record(a: RecordArgs, signal: AbortSignal): Promise<void> {
  const file = outFile(a);
  // One writer per output: a second recording to the same --out is refused before anything starts.
  const lock = await lockOutput(file, '--out', 'saltnet record');
  try {
    await recordTo(a, file, signal);
  } finally {
    lock.release();
  }
}

async function recordTo(a: RecordArgs, file: string, signal: AbortSignal): Promise<void> {
  const command = a._.slice(1).map(String);
  const s = await session(a);
  const env = recordEnv(s);
  process.stderr.write(
    [
      `saltnet record: recording to ${file}`,
      ...Object.entries(env).map(([k, v]) => `  ${k}=${v}`),
      command.length ? `  running: ${command.join(' ')}` : '  Press Ctrl-C to stop and write the scenario.',
      '',
    ].join('\n'),
  );
  let code = 0;
  if (command.length) {
    const child = execa(command[0]!, command.slice(1), {
      env: { ...process.env, ...env },
      stdio: 'inherit',
      reject: false,
      cancelSignal: signal,
      forceKillAfterDelay: 5000,
    });
    const r = await child;
    code = r.exitCode ?? 1;
  } else
    await new Promise<void>((ok) =>
      signal.aborted ? ok() : signal.addEventListener('abort', () => ok(), { once: true }),
    );
  const rec = await s.stop();
  // Said here, not thrown: after Ctrl-C the process exits as soon as this settles, before an error could be printed.
  try {
    writeScenario(rec, file, a.name);
  } catch (err) {
    process.stderr.write(`saltnet record: ${(err as Error).message}\n`);
    process.exitCode = interrupted() ? process.exitCode : 1;
  }
  if (code !== 0) {
    process.stderr.write(`saltnet record: ${command[0]} exited with code ${code}\n`);
    process.exitCode = code;
  }
}

export const recordCommand: CommandModule<object, RecordArgs> = {
  command: 'record',
  describe: 'record a session with the testnet (requests and answers) as a scenario file that replays it',
  builder: (y) =>
    (
      testnetOptions(y)
        .usage('$0 record [--out FILE] [--wallet NAME[=AMOUNT]]… [options] [-- COMMAND …]')
        .option('out', { type: 'string', describe: 'the scenario file to write (default recording-<time>.yaml here)' })
        .option('force', { type: 'boolean', default: false, describe: 'replace --out if it exists' })
        .option('wallet', {
          type: 'string',
          array: true,
          describe: 'another wallet besides main, funded from the testnet: bob, or bob=10 (SAL1); repeat for more',
        })
        .option('run', {
          type: 'string',
          describe: 'record on this running `saltnet up` (its main wallet only) instead of starting a testnet',
        })
        .option('name', { type: 'string', describe: "the scenario's name" }) as unknown as Argv<RecordArgs>
    ).check((a) => {
      if (a.run !== undefined && a.wallet?.length)
        throw new Error("--wallet needs a testnet of the recording's own: leave out --run");
      return true;
    }),
  handler: (argv) => interruptible((signal) => record(argv, signal)),
};
