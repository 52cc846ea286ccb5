// The artifact folder of one scenario run: everything needed to understand a failure, or to replay
// it with `saltnet repro`, in one place:
//
//   <root>/<timestamp>-<slug>/
//     scenario.yaml      the resolved scenario
//     commands.txt       the command lines of the processes started (secrets redacted)
//     transcript.jsonl   one JSON line per RPC exchange, in order
//     logs/<name>.log    copies of the process logs
//     result.json        the ScenarioResult
//
// Every write is synchronous and throws an ArtifactWriteError naming the file when it fails (a full
// disk included): nothing is lost silently. The folder is 0700 and its files 0600: they may hold what
// a scenario sent and got back.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { redact as defaultRedact } from '../common/redact.js';
import { orderResult, safeStringify, toPlain } from '../scenario/report/json.js';
import type { ScenarioResult } from '../scenario/types.js';
import { makeDirs } from '../common/mkdir.js';

export const ARTIFACT_FILES = {
  scenario: 'scenario.yaml',
  commands: 'commands.txt',
  transcript: 'transcript.jsonl',
  logs: 'logs',
  result: 'result.json',
} as const;

/** One RPC exchange as the runner saw it. */
export interface TranscriptEntry {
  /** When the request was sent: a Date, epoch milliseconds or an ISO string; written as ISO 8601. */
  time: Date | number | string;
  /** Who answered: `daemon`, `wallet`, `wallet:bob`, … */
  target: string;
  /** `/json_rpc`, `/get_info`, … */
  path: string;
  request: unknown;
  /** HTTP status; `null` when no answer came (connection refused, timeout). */
  status: number | null;
  response: unknown;
  ms: number;
}

/** A transcript line read back: `time` is an ISO string, bigints are decimal strings. */
export type TranscriptRecord = Omit<TranscriptEntry, 'time'> & { time: string };

export interface Artifacts {
  /** The run's folder (absolute). */
  readonly dir: string;
  /**
   * Writes `scenario.yaml`: the resolved scenario as YAML (bigints exact), or `resolved` itself when it is a string
   * (YAML or JSON text).
   */
  writeScenario(resolved: unknown): string;
  /** Writes `commands.txt`, one command line a line, redacted again. */
  writeCommandLines(lines: readonly string[]): string;
  /** Appends one line to `transcript.jsonl`. */
  transcript(entry: TranscriptEntry): void;
  /**
   * Copies process logs (name → file) into `logs/<name>.log`; returns name → copy. Copies every log it can before
   * throwing for those it could not.
   */
  copyLogs(files: Record<string, string>): Record<string, string>;
  /** Writes `result.json`. */
  writeResult(r: ScenarioResult): string;
  /** Closes the transcript; later writes throw. Idempotent. */
  close(): void;
}

/** How each kind of text the artifacts hold is redacted (redaction.ts makes one per scenario run). */
export interface ArtifactRedactor {
  /** Values and programs' output: the transcript's requests and answers, the log copies, the scenario. */
  text(s: string): string;
  /** saltnet's own words: the command lines. */
  message(s: string): string;
  /** An object key. */
  key(k: string): string;
  /** A value's strings and keys. */
  value<T>(v: T): T;
  /** A scenario's result, field by field. */
  result<T extends ScenarioResult>(r: T): T;
}

export interface ArtifactsOptions {
  /** The run's redaction (overrides `secrets` and `redact`). */
  redaction?: ArtifactRedactor;
  /** Secrets to redact from everything written (command lines, scenario, transcript, result, logs). */
  secrets?: readonly string[];
  /** The redactor of `secrets`; default: harness/common/redact.ts (every occurrence becomes `***`). */
  redact?: (text: string, secrets: readonly string[]) => string;
  /** The clock for the folder name (tests). */
  now?: () => Date;
}

/** A write into the artifact folder failed; `file` is the path, `cause` the system error. */
export class ArtifactWriteError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
    what = 'write',
  ) {
    super(`could not ${what} ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ArtifactWriteError';
  }

  /** The system error code (`ENOSPC`, `EACCES`, …), when there is one. */
  get code(): string | undefined {
    const c = (this.cause as NodeJS.ErrnoException | undefined)?.code;
    return typeof c === 'string' ? c : undefined;
  }
}

/** Lower-case ASCII words joined by `-`, at most 60 characters; `scenario` when nothing is left. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'scenario';
}

/** `20250102T030405.678Z`: UTC, sorts in time order, safe in file names everywhere. */
export function folderTimestamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '');
}

/**
 * A log's file name in `logs/`: the name with anything but `[A-Za-z0-9._-]` replaced, `.log` added unless it has an
 * extension.
 */
function logFileName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'log';
  return path.extname(base) ? base : `${base}.log`;
}

function attempt<T>(file: string, what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new ArtifactWriteError(file, e, what);
  }
}

/** A new folder `<root>/<base>` (`-2`, `-3`, … when taken), 0700: an existing folder is never reused. */
function runFolder(root: string, base: string): string {
  const absRoot = path.resolve(root);
  attempt(absRoot, 'create', () => makeDirs(absRoot));
  for (let n = 1; ; n++) {
    const candidate = path.join(absRoot, n === 1 ? base : `${base}-${n}`);
    try {
      fs.mkdirSync(candidate, { mode: 0o700 }); // not recursive: fails with EEXIST instead of reusing a folder
      return candidate;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw new ArtifactWriteError(candidate, e, 'create');
    }
  }
}

/** Copy each log (name → file) into logsDir under a safe, unique name; `red` redacts them on the way. */
function copyLogFiles(
  logsDir: string,
  files: Record<string, string>,
  red: ((s: string) => string) | undefined,
): Record<string, string> {
  attempt(logsDir, 'create', () => makeDirs(logsDir, 0o700));
  const copied: Record<string, string> = {};
  const errors: ArtifactWriteError[] = [];
  const used = new Set<string>();
  for (const [name, src] of Object.entries(files)) {
    const wanted = logFileName(name);
    const ext = path.extname(wanted);
    let fileName = wanted;
    for (let n = 2; used.has(fileName); n++) fileName = `${wanted.slice(0, wanted.length - ext.length)}-${n}${ext}`;
    used.add(fileName);
    const dest = path.join(logsDir, fileName);
    try {
      if (red) fs.writeFileSync(dest, red(fs.readFileSync(src, 'utf8')), { mode: 0o600 });
      else {
        fs.copyFileSync(src, dest);
        fs.chmodSync(dest, 0o600);
      }
      copied[name] = dest;
    } catch (e) {
      errors.push(new ArtifactWriteError(dest, e, `copy ${src} to`));
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, errors.map((e) => e.message).join('; '));
  return copied;
}

/** A transcript line's record: the entry's fields in their order, its time as an ISO string, its values redacted. */
function transcriptRecord(entry: TranscriptEntry, r: ArtifactRedactor): TranscriptRecord {
  const t = entry.time;
  const time = t instanceof Date ? t.toISOString() : typeof t === 'number' ? new Date(t).toISOString() : t;
  return {
    time,
    target: r.message(entry.target),
    path: r.message(entry.path),
    request: r.value(entry.request),
    status: entry.status,
    response: r.value(entry.response),
    ms: entry.ms,
  };
}

/** The redactor of a list of secrets (each occurrence replaced by `redact`'s choice; keys kept). */
function listRedactor(secrets: readonly string[], redact: (text: string, s: readonly string[]) => string) {
  const text = (s: string): string => (secrets.length ? redact(s, secrets) : s);
  const value = <T>(v: T): T => toPlain(v, { bigint: 'keep', mapString: text }) as T;
  return { text, message: text, key: (k: string) => k, value, result: value } satisfies ArtifactRedactor;
}

/**
 * Creates the folder `<root>/<timestamp>-<slug of the scenario name>` (and `root` if needed) for
 * one run. An existing folder is never reused: when the name is taken, `-2`, `-3`, … is appended.
 */
export function createArtifacts(
  root: string,
  scenario: { file: string; name: string },
  opts: ArtifactsOptions = {},
): Artifacts {
  const r = opts.redaction ?? listRedactor(opts.secrets ?? [], opts.redact ?? defaultRedact);
  const now = opts.now ?? (() => new Date());

  const dir = runFolder(root, `${folderTimestamp(now())}-${slugify(scenario.name)}`);

  let transcriptFd: number | undefined;
  let closed = false;
  const assertOpen = (what: string): void => {
    if (closed) throw new ArtifactWriteError(path.join(dir, what), new Error('artifacts already closed'));
  };
  // A file written twice (a second writeResult) replaces the first; only the folder is never reused.
  const writeText = (name: string, text: string): string => {
    assertOpen(name);
    const file = path.join(dir, name);
    attempt(file, 'write', () => fs.writeFileSync(file, text, { mode: 0o600 }));
    return file;
  };

  return {
    dir,

    writeScenario(resolved) {
      let text: string;
      if (typeof resolved === 'string') text = r.text(resolved);
      else {
        const plain = toPlain(resolved, { bigint: 'keep', mapString: r.text, mapKey: r.key });
        text = YAML.stringify(plain ?? null, { lineWidth: 0 });
      }
      return writeText(ARTIFACT_FILES.scenario, text.endsWith('\n') ? text : `${text}\n`);
    },

    writeCommandLines(lines) {
      return writeText(ARTIFACT_FILES.commands, lines.map((l) => `${r.message(l)}\n`).join(''));
    },

    transcript(entry) {
      assertOpen(ARTIFACT_FILES.transcript);
      const file = path.join(dir, ARTIFACT_FILES.transcript);
      const bytes = Buffer.from(`${safeStringify(transcriptRecord(entry, r))}\n`, 'utf8');
      attempt(file, 'write', () => {
        transcriptFd ??= fs.openSync(file, 'a', 0o600);
        // writeSync may write fewer bytes than asked; a line must never be cut.
        for (let off = 0; off < bytes.length;) off += fs.writeSync(transcriptFd, bytes, off, bytes.length - off);
      });
    },

    copyLogs(files) {
      assertOpen(ARTIFACT_FILES.logs);
      return copyLogFiles(path.join(dir, ARTIFACT_FILES.logs), files, r.text);
    },

    writeResult(result) {
      return writeText(ARTIFACT_FILES.result, `${safeStringify(orderResult(r.result(result)), { indent: 2 })}\n`);
    },

    close() {
      if (closed) return;
      closed = true;
      if (transcriptFd !== undefined) {
        const fd = transcriptFd;
        transcriptFd = undefined;
        attempt(path.join(dir, ARTIFACT_FILES.transcript), 'close', () => fs.closeSync(fd));
      }
    },
  };
}

/** An artifact folder read back; a file the run never wrote is `undefined` (the transcript `[]`). */
export interface LoadedArtifacts {
  dir: string;
  /** The resolved scenario (YAML parsed; integers beyond 2^53 as bigints). */
  scenario?: unknown;
  /** `scenario.yaml` as written. */
  scenarioText?: string;
  commandLines?: string[];
  transcript: TranscriptRecord[];
  /** Bigints in requests and responses are decimal strings. */
  result?: ScenarioResult;
  /** Log name (file name without `.log`) → path of the copy. */
  logs: Record<string, string>;
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Integers as numbers when exact, bigints beyond 2^53 (the same rule as the RPC clients). */
function narrowInts(v: unknown): unknown {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (Array.isArray(v)) return v.map(narrowInts);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = narrowInts(x);
    return out;
  }
  return v;
}

/**
 * Loads an artifact folder (for `saltnet repro`). A transcript whose last line was cut short (the
 * run was killed mid-write) loses that line; any other unreadable line throws, naming it.
 */
export function readArtifacts(dir: string): LoadedArtifacts {
  const abs = path.resolve(dir);
  if (!fs.statSync(abs).isDirectory()) throw new Error(`not an artifact folder: ${abs}`);
  const out: LoadedArtifacts = { dir: abs, transcript: [], logs: {} };

  const scenarioText = readIfExists(path.join(abs, ARTIFACT_FILES.scenario));
  if (scenarioText !== undefined) {
    out.scenarioText = scenarioText;
    out.scenario = narrowInts(YAML.parse(scenarioText, { intAsBigInt: true }));
  }
  const commands = readIfExists(path.join(abs, ARTIFACT_FILES.commands));
  if (commands !== undefined) {
    const lines = commands.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    out.commandLines = lines;
  }

  const transcript = readIfExists(path.join(abs, ARTIFACT_FILES.transcript));
  if (transcript !== undefined) {
    const lines = transcript.split('\n');
    const complete = transcript.endsWith('\n');
    if (complete || lines[lines.length - 1] === '') lines.pop();
    lines.forEach((l, i) => {
      if (l.trim() === '') return;
      try {
        out.transcript.push(JSON.parse(l) as TranscriptRecord);
      } catch (e) {
        if (i === lines.length - 1 && !complete) return; // cut short by a crash
        throw new Error(`${path.join(abs, ARTIFACT_FILES.transcript)}:${i + 1}: not JSON: ${(e as Error).message}`, {
          cause: e,
        });
      }
    });
  }

  const result = readIfExists(path.join(abs, ARTIFACT_FILES.result));
  if (result !== undefined) out.result = JSON.parse(result) as ScenarioResult;

  const logsDir = path.join(abs, ARTIFACT_FILES.logs);
  if (fs.existsSync(logsDir)) {
    for (const f of fs.readdirSync(logsDir).sort()) out.logs[f.replace(/\.log$/, '')] = path.join(logsDir, f);
  }
  return out;
}
