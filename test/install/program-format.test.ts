// What a program file is, from its first bytes (program-format.ts), and whether a platform runs it.
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../harness/install/platform.js';
import { formatOf, runsOn } from '../../harness/install/program-format.js';

/** The first 64 bytes of an ELF: class (1: 32-bit, 2: 64-bit), type (2: EXEC, 3: DYN, 1: REL), machine. */
function elf(machine: number, o: { bits?: 1 | 2; type?: number } = {}): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b[4] = o.bits ?? 2;
  b[5] = 1;
  b.writeUInt16LE(o.type ?? 3, 16);
  b.writeUInt16LE(machine, 18);
  return b;
}

function macho(cpu: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}

function universal(...cpus: number[]): Buffer {
  const b = Buffer.alloc(8 + cpus.length * 20);
  b.writeUInt32BE(0xcafebabe, 0);
  b.writeUInt32BE(cpus.length, 4);
  cpus.forEach((c, i) => b.writeUInt32BE(c, 8 + i * 20));
  return b;
}

function pe(machine: number): Buffer {
  const b = Buffer.alloc(0x90);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.writeUInt32LE(0x00004550, 0x80);
  b.writeUInt16LE(machine, 0x84);
  return b;
}

describe('formatOf', () => {
  it.each([
    ['an x86-64 ELF', elf(0x3e), 'an ELF executable for x86-64'],
    ['an AArch64 ELF', elf(0xb7, { type: 2 }), 'an ELF executable for AArch64'],
    ['a 32-bit x86 ELF', elf(0x03, { bits: 1 }), 'a 32-bit ELF executable for x86'],
    ['an object file', elf(0x3e, { type: 1 }), 'an ELF object file for x86-64'],
    ['a Mach-O for arm64', macho(0x0100000c), 'a Mach-O executable for arm64'],
    ['a universal Mach-O', universal(0x01000007, 0x0100000c), 'a universal Mach-O executable for x86_64, arm64'],
    ['a PE for x86-64', pe(0x8664), 'a Windows (PE) executable for x86-64'],
    ['a shell script', Buffer.from('#!/bin/sh\necho hi\n'), 'a shell script (#!/bin/sh)'],
    ['a bash script by env', Buffer.from('#!/usr/bin/env bash\n'), 'a shell script (#!/usr/bin/env bash)'],
    ['a Python script', Buffer.from('#!/usr/bin/python3\nprint(1)\n'), 'a script (#!/usr/bin/python3)'],
    ['a text file', Buffer.from('Salvium release notes\n'), 'a text file'],
    ['an empty file', Buffer.alloc(0), 'an empty file'],
    ['a gzip file', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), 'it starts with the bytes 1f 8b 08 00'],
  ])('%s', (_what, bytes, description) => {
    expect(formatOf(bytes).description).toContain(description);
  });
});

describe('runsOn', () => {
  const runners = (b: Buffer): string[] => PLATFORMS.filter((p) => runsOn(formatOf(b), p));
  it('an executable runs on its own platform only; scripts, text and objects on none', () => {
    expect(runners(elf(0x3e))).toEqual(['linux-x86_64']);
    expect(runners(elf(0xb7))).toEqual(['linux-aarch64']);
    expect(runners(macho(0x01000007))).toEqual(['macos-x86_64']);
    expect(runners(universal(0x01000007, 0x0100000c))).toEqual(['macos-x86_64', 'macos-arm64']);
    expect(runners(pe(0x8664))).toEqual(['windows-x64']);
    for (const b of [
      elf(0x3e, { type: 1 }),
      elf(0x03, { bits: 1 }),
      pe(0xaa64),
      Buffer.from('#!/bin/sh\n'),
      Buffer.from('text'),
    ])
      expect(runners(b)).toEqual([]);
  });
});
