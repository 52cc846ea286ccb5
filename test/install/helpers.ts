// Test archives, a release table and a local release server for the `saltnet install` tests.
// Archives are built in memory: tar entries with the `tar` package's Header (so a test can write
// entries no well-behaved packer would, like `../evil`), zips with a tiny stored-only writer
// (no compression, so it needs nothing but zlib's crc32).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import type { PlatformId } from '../../harness/install/platform.js';
import { fakeElf } from './fake-elf.js';

export const VERSION = 'v9.9.9-test';

export interface FakeEntry {
  path: string;
  type?: 'file' | 'dir' | 'symlink' | 'fifo';
  body?: string | Buffer;
  /** Permission bits; for zips, undefined means "made on Windows" (no Unix mode at all). */
  mode?: number;
  linkpath?: string;
}

/** An entry's body as bytes (text as UTF-8). */
export const bytesOf = (body: string | Buffer | undefined): Buffer =>
  Buffer.isBuffer(body) ? body : Buffer.from(body ?? '', 'utf8');

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A program of this machine (fake-elf.ts) that prints a version line, as `salviumd --version` does. */
export const fakeProgram = (name: string, version = VERSION): Buffer =>
  fakeElf({ stdout: `${name}: Salvium 'Fake' (${version})\n` });

export const PROGRAM_NAMES = ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc'] as const;

/** The three programs under `prefix` (e.g. 'salvium-v9.9.9/bin/'), with the given mode. */
export function programs(prefix = '', mode?: number, version = VERSION): FakeEntry[] {
  return PROGRAM_NAMES.map((n) => ({ path: `${prefix}${n}`, body: fakeProgram(n, version), mode }));
}

/** A SHA256SUMS entry listing `entries`' files (as the release tarball's own one does). */
export function sha256sums(entries: FakeEntry[], prefix = ''): FakeEntry {
  const lines = entries.map((e) => `${sha256(bytesOf(e.body))}  ${e.path.split('/').pop()}`);
  return { path: `${prefix}SHA256SUMS`, body: `${lines.join('\n')}\n` };
}

/** A folder holding the three fake programs (executable) at `dir/sub`. */
export function writeProgramsFolder(dir: string, version: string, sub = ''): string {
  const at = join(dir, sub);
  mkdirSync(at, { recursive: true });
  for (const n of PROGRAM_NAMES) writeFileSync(join(at, n), fakeProgram(n, version), { mode: 0o755 });
  return at;
}

/** An `ldd` that reports the given libraries as not found for every program (and `calls` records what it was asked). */
export function fakeLdd(missing: string[] = []): { ldd: (p: string) => Promise<string>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    ldd: async (p) => {
      calls.push(p);
      return [
        '\tlinux-vdso.so.1 (0x00007ffd5a7f2000)',
        ...missing.map((l) => `\t${l} => not found`),
        '\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f06cb01e000)',
      ].join('\n');
    },
  };
}

const TAR_TYPES = { file: 'File', dir: 'Directory', symlink: 'SymbolicLink', fifo: 'FIFO' } as const;

export function tarGz(entries: FakeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? 'file';
    const body = type === 'file' ? bytesOf(e.body) : Buffer.alloc(0);
    const block = Buffer.alloc(512);
    new Header({
      path: e.path,
      mode: e.mode ?? (type === 'dir' ? 0o755 : 0o644),
      size: body.length,
      type: TAR_TYPES[type],
      linkpath: e.linkpath,
      mtime: new Date(0),
      uid: 0,
      gid: 0,
    }).encode(block, 0);
    parts.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

/** A stored (uncompressed) zip. Entries with a mode carry it as Unix attributes, as Info-ZIP writes them. */
export function zip(entries: FakeEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const type = e.type ?? 'file';
    const name = Buffer.from(type === 'dir' && !e.path.endsWith('/') ? `${e.path}/` : e.path, 'utf8');
    const data =
      type === 'symlink' ? Buffer.from(e.linkpath ?? '') : type === 'file' ? bytesOf(e.body) : Buffer.alloc(0);
    const crc = crc32(data);
    const fmt = { file: 0o100000, dir: 0o040000, symlink: 0o120000, fifo: 0o010000 }[type];
    const unix = e.mode !== undefined || type !== 'file';
    const mode = fmt | (e.mode ?? (type === 'dir' ? 0o755 : type === 'symlink' ? 0o777 : 0o644));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(unix ? (3 << 8) | 30 : 20, 4); // made by: Unix, or MS-DOS
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attrs
    central.writeUInt32LE(unix ? (mode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A release table file pinning `assets` (name → archive bytes) for VERSION; no assets: an empty table. */
export function writeTable(
  dir: string,
  assets: { name: string; bytes: Buffer; platform?: PlatformId }[],
  version = VERSION,
): string {
  const file = join(dir, 'releases.json');
  const entry = {
    version,
    pinnedFrom: 'test',
    pinnedAt: '2025-01-01',
    assets: assets.map((a) => ({
      name: a.name,
      sha256: sha256(a.bytes),
      ...(a.platform ? { platform: a.platform } : {}),
    })),
  };
  writeFileSync(file, JSON.stringify({ releases: assets.length ? [entry] : [] }));
  return file;
}

export type Route = Buffer | ((req: IncomingMessage, res: ServerResponse) => void);

export interface ReleaseServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

/** A release server on 127.0.0.1 answering `routes` (path → bytes or handler) and 404 for anything else. */
export async function serveReleases(routes: Record<string, Route> = {}): Promise<ReleaseServer> {
  const map = new Map(Object.entries(routes));
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const route = map.get(path);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    } else if (Buffer.isBuffer(route)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': route.length }).end(route);
    } else route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes: map,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // a handler that stalls on purpose keeps its socket open
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const dirs: string[] = [];
export function tempDir(prefix = 'saltnet-install-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
export function cleanupDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
