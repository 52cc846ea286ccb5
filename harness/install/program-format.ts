// What kind of file a program is, from its first bytes: an ELF (Linux), Mach-O (macOS) or PE
// (Windows) executable and the CPU it is built for, a script (`#!…`), or something else. Before
// anything of a release runs, each of its three programs must be an executable of the platform it
// is installed for: a shell script named salviumd would otherwise run at install, and at every
// later `saltnet up` that picks the install.
import { closeSync, openSync, readSync } from 'node:fs';
import type { PlatformId } from './platform.js';

export interface ProgramFormat {
  /** 'elf', 'macho', 'pe', 'script' or 'other'. */
  kind: 'elf' | 'macho' | 'pe' | 'script' | 'other';
  /** The CPU of an executable, in the words of its format's tools (`x86-64`, `AArch64`, `arm64`…); undefined else. */
  cpu?: string;
  /** For messages: `an ELF executable for x86-64`, `a script (#!/bin/sh)`, `a text file`, … */
  description: string;
}

/** How many bytes are read: enough for a PE header, whose offset is in its first 64 bytes. */
const HEAD_BYTES = 4096;

const ELF_MACHINES: Record<number, string> = {
  0x03: 'x86',
  0x08: 'MIPS',
  0x14: 'PowerPC',
  0x15: 'PowerPC 64',
  0x16: 'S/390',
  0x28: 'ARM',
  0x3e: 'x86-64',
  0xb7: 'AArch64',
  0xf3: 'RISC-V',
  0x102: 'LoongArch',
};
const ELF_TYPES: Record<number, string> = { 1: 'object file', 2: 'executable', 3: 'executable', 4: 'core dump' };

const MACHO_CPUS: Record<number, string> = { 7: 'i386', 0x01000007: 'x86_64', 12: 'arm', 0x0100000c: 'arm64' };

const PE_MACHINES: Record<number, string> = { 0x14c: 'x86 (32-bit)', 0x8664: 'x86-64', 0xaa64: 'ARM64', 0x1c4: 'ARM' };

/** The format a platform's programs have, as `programFormat` reports it. */
const EXPECTED: Record<PlatformId, { kind: ProgramFormat['kind']; cpu: string; description: string }> = {
  'linux-x86_64': { kind: 'elf', cpu: 'x86-64', description: 'an ELF executable for x86-64' },
  'linux-aarch64': { kind: 'elf', cpu: 'AArch64', description: 'an ELF executable for AArch64' },
  'macos-x86_64': { kind: 'macho', cpu: 'x86_64', description: 'a Mach-O executable for x86_64' },
  'macos-arm64': { kind: 'macho', cpu: 'arm64', description: 'a Mach-O executable for arm64' },
  'windows-x64': { kind: 'pe', cpu: 'x86-64', description: 'a Windows (PE) executable for x86-64' },
};

function head(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    return buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

function elf(b: Buffer): ProgramFormat {
  if (b.length < 20) return { kind: 'other', description: 'a truncated ELF file' };
  const le = b[5] !== 2;
  const u16 = (at: number): number => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const machine = u16(18);
  const cpu = ELF_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`;
  const bits32 = b[4] === 1;
  const type = ELF_TYPES[u16(16)] ?? 'file';
  const description = `${bits32 ? 'a 32-bit' : 'an'} ELF ${type} for ${cpu}`;
  return { kind: type === 'executable' && !bits32 ? 'elf' : 'other', cpu, description };
}

function macho(b: Buffer): ProgramFormat | undefined {
  if (b.length < 8) return undefined;
  const magicLE = b.readUInt32LE(0);
  if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) {
    const cpu = MACHO_CPUS[b.readUInt32LE(4)] ?? `CPU type ${b.readUInt32LE(4)}`;
    return { kind: 'macho', cpu, description: `a Mach-O executable for ${cpu}` };
  }
  if (b.readUInt32BE(0) === 0xcafebabe) {
    // A universal binary: a big-endian count, then 20-byte entries starting with a CPU type.
    const n = b.readUInt32BE(4);
    if (n === 0 || n > 16) return undefined; // a Java class file shares the magic; its next word is a version
    const cpus: string[] = [];
    for (let i = 0; i < n && 8 + i * 20 + 4 <= b.length; i++) {
      const t = b.readUInt32BE(8 + i * 20);
      cpus.push(MACHO_CPUS[t] ?? `CPU type ${t}`);
    }
    return { kind: 'macho', cpu: cpus.join('+'), description: `a universal Mach-O executable for ${cpus.join(', ')}` };
  }
  return undefined;
}

function pe(b: Buffer): ProgramFormat | undefined {
  if (b.length < 64 || b[0] !== 0x4d || b[1] !== 0x5a) return undefined;
  const at = b.readUInt32LE(0x3c);
  if (at + 6 > b.length || b.readUInt32LE(at) !== 0x00004550) return { kind: 'other', description: 'a DOS executable' };
  const machine = b.readUInt16LE(at + 4);
  const cpu = PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`;
  return { kind: 'pe', cpu, description: `a Windows (PE) executable for ${cpu}` };
}

/** What the bytes `b` (a file's beginning) are. */
export function formatOf(b: Buffer): ProgramFormat {
  if (b.length === 0) return { kind: 'other', description: 'an empty file' };
  if (b.length >= 4 && b.readUInt32BE(0) === 0x7f454c46) return elf(b);
  const m = macho(b) ?? pe(b);
  if (m) return m;
  if (b[0] === 0x23 && b[1] === 0x21) {
    const line = b.subarray(0, 200).toString('utf8').split('\n')[0]!.trim();
    const shell = /\/(?:env\s+)?(?:ba|da|z|k|c|tc)?sh\b/.test(line);
    return { kind: 'script', description: `a ${shell ? 'shell ' : ''}script (${line})` };
  }
  const text = b.subarray(0, 512);
  if (!text.includes(0) && /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/u.test(text.toString('utf8')))
    return { kind: 'other', description: 'a text file' };
  const hex = [...b.subarray(0, 4)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  return { kind: 'other', description: `not a program format saltnet knows (it starts with the bytes ${hex})` };
}

/** What the file at `path` is (symlinks followed). */
export function programFormat(path: string): ProgramFormat {
  return formatOf(head(path));
}

/** The format programs for `platform` have, for messages: `an ELF executable for x86-64`. */
export function expectedFormat(platform: PlatformId): string {
  return EXPECTED[platform].description;
}

/** Whether `f` is an executable that `platform` runs (a universal Mach-O counts when it holds the CPU). */
export function runsOn(f: ProgramFormat, platform: PlatformId): boolean {
  const want = EXPECTED[platform];
  if (f.kind !== want.kind || f.cpu === undefined) return false;
  return f.kind === 'macho' ? f.cpu.split('+').includes(want.cpu) : f.cpu === want.cpu;
}
