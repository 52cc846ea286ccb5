// Entry point of the simulated `salvium-wallet-cli` (reference §1.2): the real startup lines,
// prompts (password, seed language, background mining) read line by line, wallet generation and
// opening, `--command`, and an interactive loop with the commonly used commands.
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSimConfig } from '../common/config.js';
import { createLogger } from '../common/log.js';
import { defaultLogFile } from '../common/default-log.js';
import { formatMoney as money } from '../common/format.js';
import { failParse, OptionError, parseOptions, type ParsedOptions } from '../common/options.js';
import { VERSION_LINE } from '../common/version.js';
import { seedToWords, wordsToSeed } from '../crypto/mnemonic.js';
import { carrotAccountViewKey } from '../crypto/carrot.js';
import { fromHex, toHex } from '../crypto/hex.js';
import { createDaemonClient, type DaemonClient } from '../wallet/daemon-client.js';
import { InvalidPassword, walletExists } from '../wallet/files.js';
import { daemonAddress, WALLET_CLI_OPTIONS, WALLET_OPTIONS_HEADING } from '../wallet/options.js';
import { refresh } from '../wallet/scan.js';
import { emptyState, loadWallet, newWallet, primaryAddress, saveWallet, type Wallet } from '../wallet/state.js';
import { parseLookaheadArg } from '../wallet/subaddresses.js';
import { balanceOf } from '../wallet/views.js';
import { createLineInput, type LineInput } from './input.js';
import {
  askBackgroundMining,
  confirmRestoreHeight,
  daemonHeight,
  out,
  printGenerated,
  readLanguage,
  readPassword,
} from './dialogue.js';
import { dieOn, dieOnUncaught } from '../common/fatal.js';
import { testStall } from '../common/test-stall.js';

/** Commands of the real CLI that the simulator does not implement (they answer so, honestly). */
const REAL_COMMANDS = new Set([
  'transfer',
  'sweep_all',
  'sweep_single',
  'burn',
  'stake',
  'audit',
  'create_token',
  'get_tokens',
  'token_info',
  'show_transfers',
  'set',
  'set_daemon',
  'rescan_bc',
  'incoming_transfers',
  'payments',
  'account',
  'integrated_address',
  'address_book',
  'sign',
  'verify',
  'export_key_images',
  'import_key_images',
  'password',
  'status',
  'wallet_info',
  'spendkey',
  'welcome',
  'version',
]);

function parse(argv: string[]): ParsedOptions {
  try {
    return parseOptions(argv, WALLET_CLI_OPTIONS);
  } catch (err) {
    if (err instanceof OptionError) failParse(err, WALLET_CLI_OPTIONS, WALLET_OPTIONS_HEADING);
    throw err;
  }
}

async function create(path: string, opts: ParsedOptions, input: LineInput, daemon: DaemonClient): Promise<Wallet> {
  const password = await readPassword(opts, input, true);
  if (password === undefined) process.exit(1);
  let seed: Uint8Array | undefined;
  let refreshFrom: number;
  let language = 'English';
  if (opts.has('restore-deterministic-wallet') || opts.has('restore-from-seed')) {
    // Without --electrum-seed the seed is read from stdin (input_secure_line): on a pipe one line, no prompt
    // (v1.1.3c, seen with the seed and an empty passphrase piped in).
    const words =
      opts.get('electrum-seed') ?? (await input.ask(process.stdin.isTTY ? 'Specify Electrum seed: ' : undefined));
    if (words === undefined) process.exit(1);
    try {
      seed = wordsToSeed(words);
    } catch {
      out('Error: Electrum-style word list failed verification');
      process.exit(1);
    }
    // The real CLI always asks for a seed offset passphrase, --electrum-seed or not; when stdin is
    // not a TTY it prints no prompt and reads one line silently.
    const passphrase = await input.ask(
      process.stdin.isTTY ? 'Enter seed offset passphrase, empty if none: ' : undefined,
    );
    if (passphrase) {
      out('Error: the simulator does not model seed offset passphrases (see harness/sim/README.md)');
      process.exit(1);
    }
    const h =
      opts.get('restore-height') ??
      (await input.ask(
        'Restore from specific blockchain height (optional, default 0),\nor alternatively from specific date (YYYY-MM-DD): ',
      ));
    refreshFrom = /^\d+$/.test((h ?? '').trim()) ? Number((h ?? '').trim()) : 0;
  } else {
    const lang = await readLanguage(opts, input);
    if (lang === undefined) process.exit(1);
    language = lang;
    refreshFrom = opts.has('offline') ? 0 : ((await daemonHeight(daemon)) ?? 0);
  }
  // wallet2::set_subaddress_lookahead refuses a zero: the real CLI then ends without a word.
  const lookahead = lookaheadOption(opts);
  if (lookahead && (lookahead.major === 0 || lookahead.minor === 0)) process.exit(1);
  if (walletExists(path)) {
    out(`Error: failed to generate new wallet: file already exists "${existsSync(path) ? path : `${path}.keys`}"`);
    process.exit(1);
  }
  // TEST ONLY (SALTNET_SIM_TEST_STALL=wallet_cli_generate:<ms>): the fault suite freezes a restore under way.
  await testStall((l) => process.stderr.write(`${l}\n`))?.('wallet_cli_generate', '');
  const w = newWallet(path, password, {
    ...(seed ? { seed } : {}),
    language,
    refreshFrom,
    ...(lookahead ? { lookahead } : {}),
  });
  saveWallet(w);
  if (opts.has('create-address-file')) writeFileSync(`${path}.address.txt`, primaryAddress(w));
  printGenerated(w, !seed);
  // simplewallet asks once the wallet is generated (m_restoring), then sets the height and rewrites the wallet.
  if (seed) {
    const confirmed = await confirmRestoreHeight(refreshFrom, opts, input, daemon);
    if (confirmed !== refreshFrom) {
      w.keysFile.refreshFrom = confirmed;
      w.state = emptyState(confirmed);
      saveWallet(w);
    }
  }
  return w;
}

/** --subaddress-lookahead, parsed (checked at start: main). */
function lookaheadOption(opts: ParsedOptions): { major: number; minor: number } | undefined {
  const text = opts.get('subaddress-lookahead');
  return text ? parseLookaheadArg(text) : undefined;
}

function open(path: string, password: string): Wallet {
  try {
    const w = loadWallet(path, password);
    out(`Opened legacy (CN) wallet: ${w.keys.cn.address}`);
    out(`Opened Carrot wallet: ${w.keys.carrot.address}`);
    return w;
  } catch (err) {
    if (err instanceof InvalidPassword) out('Error: failed to load wallet: invalid password');
    else out('Error: Key file not found. Failed to open wallet');
    process.exit(1);
  }
}

async function runCommand(
  line: string,
  w: Wallet,
  daemon: DaemonClient,
  tokenMintVisible: boolean,
): Promise<'exit' | void> {
  const [cmd, ...args] = line.trim().split(/\s+/);
  if (!cmd) return;
  switch (cmd) {
    case 'exit':
    case 'q':
      return 'exit';
    case 'address': {
      const used = w.state.outputs.length > 0;
      out(
        `${'0'.padStart(8)} CN     ${w.keys.cn.address.padStart(96)} ${'Primary address'.padStart(21)} ${(used ? '(used)' : '').padStart(6)}`,
      );
      out(`${' '.repeat(9)}Carrot ${w.keys.carrot.address.padStart(96)}`);
      return;
    }
    case 'balance':
      for (const asset of [...w.state.assetsSeen].sort()) {
        const b = balanceOf(w, asset);
        out(`Asset: ${asset}, balance: ${money(b.balance)}, unlocked balance: ${money(b.unlocked)}`);
      }
      return;
    case 'refresh':
      out('Starting refresh...');
      try {
        const r = await refresh(w, daemon, { tokenMintVisible });
        out(`Refresh done, blocks received: ${r.blocksFetched}`);
      } catch {
        out(`Error: refresh failed: no connection to daemon`);
      }
      return;
    case 'bc_height': {
      const h = await daemonHeight(daemon);
      out(h === undefined ? 'Error: failed to get blockchain height: no connection to daemon' : String(h));
      return;
    }
    case 'seed':
      out(
        'NOTE: the following 25 words can be used to recover access to your wallet. Write them down and store them somewhere safe and secure. Please do not store them in your email or on file storage services outside of your immediate control.',
      );
      out(seedToWords(fromHex(w.keysFile.seed)).join(' '));
      return;
    case 'viewkey': {
      // simple_wallet::viewkey: the Carrot public key shown is the account's K_v = k_vi·K_s (v1.1.3c).
      const c = w.keys.carrot;
      out(`secret: ${w.keys.cn.viewSecret}`);
      out(`CN public: ${w.keys.cn.viewPublic}`);
      out(
        `Carrot public: ${/^0+$/.test(c.viewSecret) ? c.viewSecret : toHex(carrotAccountViewKey(fromHex(c.viewSecret), fromHex(c.spendPublic)))}`,
      );
      return;
    }
    case 'save':
      saveWallet(w);
      out('Wallet data saved');
      return;
    case 'help':
      out('Commands: address, balance, refresh, bc_height, seed, viewkey, save, exit');
      return;
    default:
      void args;
      if (REAL_COMMANDS.has(cmd)) out(`Error: the saltnet simulator does not implement the '${cmd}' command`);
      else out(`Error: Unknown command: ${cmd}`);
  }
}

/**
 * The wallet to use: --generate-new-wallet, --wallet-file, or the name asked for (opened, or created when confirmed).
 */
async function chooseWallet(
  opts: ReturnType<typeof parse>,
  input: ReturnType<typeof createLineInput>,
  daemon: ReturnType<typeof createDaemonClient>,
): Promise<Wallet> {
  const generate = opts.get('generate-new-wallet');
  const walletFile = opts.get('wallet-file');
  if (generate) {
    return create(resolve(generate), opts, input, daemon);
  } else if (walletFile) {
    const password = await readPassword(opts, input, false);
    if (password === undefined) process.exit(1);
    return open(resolve(walletFile), password);
  } else {
    out("Specify wallet file name (e.g., MyWallet). If the wallet doesn't exist, it will be created.");
    const name = (await input.ask('Wallet file name (or Ctrl-C to quit): '))?.trim();
    if (!name) process.exit(1);
    const path = resolve(name);
    if (walletExists(path)) {
      out('Wallet and key files found, loading...');
      const password = await readPassword(opts, input, false);
      if (password === undefined) process.exit(1);
      return open(path, password);
    } else {
      out(`No wallet found with that name. Confirm creation of new wallet named: ${name}`);
      const yes = await input.ask('  (Y/Yes/N/No): ');
      if (!yes || !/^(y|yes)$/i.test(yes.trim())) process.exit(1);
      return create(path, opts, input, daemon);
    }
  }
}

async function main(): Promise<void> {
  const opts = parse(process.argv.slice(2));
  out('This is the command line Salvium wallet. It needs to connect to a Salvium daemon to work correctly.');
  out(
    'WARNING: Do not reuse your Salvium keys on another fork, UNLESS this fork has key reuse mitigations built in. Doing so will harm your privacy.',
  );
  out('');
  out(VERSION_LINE);
  if (opts.has('help') || opts.has('version')) return;
  // The CLI wallet logs to its file only, never to the console.
  const logFile = opts.get('log-file') ?? defaultLogFile('salvium-wallet-cli');
  out(`Logging to ${logFile}`);
  const log = createLogger({
    file: resolve(logFile),
    console: false,
    category: 'wallet.simplewallet',
    sourceFile: 'simplewallet.cpp',
    mode: 0o600,
  });
  log.log('I', VERSION_LINE);
  const lookaheadText = opts.get('subaddress-lookahead');
  if (lookaheadText && !parseLookaheadArg(lookaheadText)) {
    out('Error: invalid format for subaddress lookahead; must be <major>:<minor>');
    process.exit(1);
  }
  if (!opts.has('testnet')) {
    out('Error: saltnet simulator: only --testnet is simulated');
    process.exit(1);
  }
  const config = loadSimConfig();
  const input = createLineInput();
  const address = daemonAddress((n) => opts.get(n));
  const daemon = createDaemonClient(address);
  const w = await chooseWallet(opts, input, daemon);
  log.log('I', `Wallet ${w.path}: CN ${w.keys.cn.address}, Carrot ${w.keys.carrot.address}`);
  const commandWords = [...opts.getAll('command'), ...opts.positional];
  if (commandWords.length > 0) {
    // --command: no refresh before it, no background-mining question; save and exit 0 whatever happened.
    await runCommand(commandWords.join(' '), w, daemon, config.tokenMintVisible);
    saveWallet(w);
    input.close();
    process.exit(0);
  }
  const offline = opts.has('offline');
  const height = offline ? undefined : await daemonHeight(daemon);
  if (offline) {
    // Offline, the real CLI still asks the background-mining question, then says why it has no daemon.
    await askBackgroundMining(input);
    out('If you are new to Salvium, type "welcome" for a brief overview.');
    out('Error: wallet failed to connect to daemon, because it is set to offline mode');
  } else if (height === undefined) {
    out(
      `Error: wallet failed to connect to daemon: ${address}. Daemon either is not started or wrong port was passed. Please make sure daemon is running or change the daemon address using the 'set_daemon' command.`,
    );
  } else {
    const mining = await daemon.post('/mining_status', {}).catch(() => ({ active: false }));
    if (!mining.active) await askBackgroundMining(input);
    // Where the real (Monero 0.18) CLI prints it: after the background-mining question.
    out('If you are new to Salvium, type "welcome" for a brief overview.');
    await runCommand('refresh', w, daemon, config.tokenMintVisible);
  }
  out('Background refresh thread started');
  const tag = (): string => `[wallet ${primaryAddress(w).slice(0, 8)}${height === undefined ? ' (no daemon)' : ''}]: `;
  for (;;) {
    const line = await input.ask(tag());
    if (line === undefined) break;
    if ((await runCommand(line, w, daemon, config.tokenMintVisible)) === 'exit') break;
  }
  saveWallet(w);
  input.close();
  process.exit(0);
}

dieOnUncaught();
main().catch(dieOn);
