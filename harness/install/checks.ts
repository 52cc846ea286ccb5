// Whether the programs of a release run on this machine, before it is installed: that each is an
// executable of the platform (program-format.ts: an ELF for this CPU on Linux, not a script), the
// hashes the archive's own SHA256SUMS lists (when it has one), `ldd` on each program (Linux: every
// `not found` library named with its Debian package), then `<program> --version`, whose first line
// is the version the marker records. A release that fails any of these is not installed: `auto` must
// never pick a broken install, and the fix (apt-get install …, then the same command) is cheap.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { hashPath } from '../common/files.js';
import { scaled } from '../common/timeouts.js';
import type { FoundBinaries } from './binaries.js';
import { notFoundLibraries, packagesFor } from './debian.js';
import { InstallError } from './errors.js';
import { hashFor, parseHashesFile } from './hashes-file.js';
import { platformFor, type PlatformId } from './platform.js';
import { expectedFormat, programFormat, runsOn } from './program-format.js';

/** `ldd <program>`'s output (stdout and stderr); '' where there is no ldd. Injectable for tests. */
export type Ldd = (program: string) => Promise<string>;

export const systemLdd: Ldd = async (program) => {
  if (process.platform !== 'linux') return '';
  const r = await execa('ldd', [program], {
    reject: false,
    timeout: scaled(30_000),
    env: { LC_ALL: 'C' },
    stdin: 'ignore',
  });
  if ((r as { code?: string }).code === 'ENOENT') return ''; // no ldd: the --version run below still tells
  return `${r.stdout}\n${r.stderr}`;
};

export interface CheckedPrograms {
  /** The first line `salviumd --version` printed. */
  programVersion: string;
  programs: { daemon: string; walletCli: string; walletRpc: string };
}

type Role = keyof FoundBinaries['paths'];

const SUMS_FILES = ['SHA256SUMS', 'SHA256SUMS.txt', 'sha256sums', 'sha256sums.txt'];

async function hashPrograms(found: FoundBinaries): Promise<CheckedPrograms['programs']> {
  const out = {} as CheckedPrograms['programs'];
  for (const [role, path] of Object.entries(found.paths) as [Role, string][]) out[role] = (await hashPath(path)).sha256;
  return out;
}

/** The programs' hashes against a SHA256SUMS beside them (the release tarball has one); a mismatch is refused. */
function checkBundledSums(found: FoundBinaries, programs: CheckedPrograms['programs'], label: string): number {
  const file = SUMS_FILES.map((n) => join(found.dir, n)).find((p) => existsSync(p));
  if (!file) return 0;
  const { lines } = parseHashesFile(readFileSync(file, 'utf8'));
  let checked = 0;
  for (const [role, path] of Object.entries(found.paths) as [Role, string][]) {
    const listed = hashFor(lines, basename(path), file);
    if (listed === undefined) continue;
    if (listed !== programs[role])
      throw new InstallError(
        'BAD_ARCHIVE',
        `refusing ${label}: its ${basename(file)} lists ${basename(path)} with sha256 ${listed}, but the file's is ${programs[role]} (a damaged or altered release); nothing was installed`,
      );
    checked++;
  }
  return checked;
}

/**
 * Refuse programs that are not executables of `platform` (a script, an ELF for another CPU, a text file), before any
 * of them runs; `name` says where a program is for the person who gave it.
 */
function checkFormats(found: FoundBinaries, platform: PlatformId, label: string, name: (path: string) => string): void {
  const wrong = Object.values(found.paths)
    .map((path) => ({ path, format: programFormat(path) }))
    .filter((p) => !runsOn(p.format, platform));
  if (!wrong.length) return;
  throw new InstallError(
    'FOREIGN_PROGRAM',
    `refusing ${label}: ${wrong.map((w) => `${name(w.path)} is ${w.format.description}`).join('; ')}; ` +
      `a program for ${platform} must be ${expectedFormat(platform)}. saltnet runs salviumd, salvium-wallet-cli and ` +
      'salvium-wallet-rpc themselves, so each must be a Salvium program built for this platform. ' +
      'Nothing was run and nothing was installed',
  );
}

async function checkLinks(found: FoundBinaries, ldd: Ldd, label: string): Promise<void> {
  const missing = new Map<string, string[]>();
  for (const path of Object.values(found.paths))
    for (const lib of notFoundLibraries(await ldd(path)))
      missing.set(lib, [...(missing.get(lib) ?? []), basename(path)]);
  if (!missing.size) return;
  const { packages, unknown } = packagesFor([...missing.keys()]);
  const libs = [...missing].map(([lib, progs]) => `${lib} (${progs.join(', ')})`).join(', ');
  const fixes = [
    packages.length ? `sudo apt-get install -y ${packages.join(' ')} (Debian 12 package names)` : undefined,
    unknown.length
      ? `install the package that ships ${unknown.join(', ')} (\`apt-file search <name>\` finds it)`
      : undefined,
  ].filter(Boolean);
  throw new InstallError(
    'MISSING_LIBRARIES',
    `the programs of ${label} cannot run here: this machine lacks the shared libraries ${libs}. Nothing was installed.\n` +
      `fix: ${fixes.join('; and ')}, then run the same command again`,
  );
}

/** First non-empty line of a program's `--version`; PROGRAM_FAILED when it does not run. */
async function versionLine(path: string, label: string, signal?: AbortSignal): Promise<string> {
  const r = await execa(path, ['--version'], {
    reject: false,
    timeout: scaled(30_000),
    env: { TERM: 'dumb' },
    stdin: 'ignore',
    ...(signal ? { cancelSignal: signal } : {}),
  });
  signal?.throwIfAborted();
  const lines = (s: unknown): string[] =>
    String(s ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  const first = lines(r.stdout)[0] ?? lines(r.stderr)[0];
  if (r.exitCode === 0 && !r.timedOut && first) return first;
  const how = r.timedOut
    ? `did not finish in ${Math.round(scaled(30_000) / 1000)} s`
    : r.exitCode === undefined
      ? `was killed by ${r.signal ?? 'a signal'}`
      : r.exitCode === 0
        ? 'printed nothing'
        : `exited with ${r.exitCode}`;
  const said = lines(r.stderr).slice(0, 3).join(' | ') || lines(r.stdout).slice(0, 3).join(' | ');
  const lib = /error while loading shared libraries: ([^:\s]+)/.exec(String(r.stderr ?? ''))?.[1];
  const hint = lib
    ? ` (install ${packagesFor([lib]).packages[0] ?? `the package that ships ${lib}`})`
    : (r as { code?: string }).code === 'ENOEXEC' || /Exec format error/i.test(String(r.message))
      ? ' (built for another system or CPU?)'
      : '';
  throw new InstallError(
    'PROGRAM_FAILED',
    `${basename(path)} of ${label} does not run here: \`${basename(path)} --version\` ${how}${said ? `: ${said}` : ''}${hint}. Nothing was installed`,
  );
}

/**
 * Check that the three programs are executables of the platform, are the ones the archive lists (its SHA256SUMS), link
 * and run here; returns what `salviumd --version` printed and the programs' hashes. Programs built for another platform
 * than this machine's are checked for their format and hashed, not run. `name` turns a program's path into the one
 * messages show (default: the path).
 */
export async function checkPrograms(
  found: FoundBinaries,
  o: {
    platform: PlatformId;
    label: string;
    ldd?: Ldd;
    log?: (line: string) => void;
    name?: (path: string) => string;
    /** Ends a program's run, and the checks, with the signal's reason. */
    signal?: AbortSignal;
  },
): Promise<CheckedPrograms> {
  checkFormats(found, o.platform, o.label, o.name ?? ((p) => p));
  const programs = await hashPrograms(found);
  const listed = checkBundledSums(found, programs, o.label);
  if (listed) o.log?.(`saltnet install: ${listed} program(s) match the release's own SHA256SUMS`);
  let host: PlatformId | undefined;
  try {
    host = platformFor();
  } catch {
    host = undefined;
  }
  if (o.platform !== host) return { programVersion: `not run (built for ${o.platform})`, programs };
  await checkLinks(found, o.ldd ?? systemLdd, o.label);
  let programVersion = '';
  for (const [role, path] of Object.entries(found.paths) as [Role, string][]) {
    o.signal?.throwIfAborted();
    const line = await versionLine(path, o.label, o.signal);
    if (role === 'daemon') programVersion = line;
  }
  return { programVersion, programs };
}

/** The release tag in a version line: `Salvium 'One' (v1.1.3c-bcd1c3b84, …)` → `v1.1.3c`; undefined when none. */
export function tagOf(programVersion: string): string | undefined {
  const m = /\(v?(\d+(?:\.\d+)+[0-9A-Za-z]*)/.exec(programVersion);
  return m ? `v${m[1]}` : undefined;
}
