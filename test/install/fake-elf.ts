// A tiny static Linux executable for this machine's CPU (x86-64 or AArch64), made byte by byte:
// it writes a fixed text to stdout and one to stderr and exits with a fixed code, whatever its
// arguments. `install` refuses programs that are not executables of the platform (a shell script
// named salviumd), so the fake Salvium programs of the tests are real ones of these.
//
// Layout: the 64-byte ELF header, one PT_LOAD program header (56 bytes) mapping the whole file
// read+execute at 0x400000, the code at byte 120, then the two texts.
import { arch, platform } from 'node:process';

const BASE = 0x400000;
const CODE_AT = 64 + 56;

interface Behaviour {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

/** x86-64: write(1, out, n); write(2, err, m); exit(code). Absolute 32-bit addresses (`mov esi, imm32`). */
function x64(outAt: number, outLen: number, errAt: number, errLen: number, code: number): Buffer {
  const imm = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];
  const write = (fd: number, at: number, len: number): number[] => [
    ...[0xb8, ...imm(1)], // mov eax, 1 (write)
    ...[0xbf, ...imm(fd)], // mov edi, fd
    ...[0xbe, ...imm(at)], // mov esi, at
    ...[0xba, ...imm(len)], // mov edx, len
    ...[0x0f, 0x05], // syscall
  ];
  return Buffer.from([
    ...write(1, outAt, outLen),
    ...write(2, errAt, errLen),
    ...[0xb8, ...imm(60)], // mov eax, 60 (exit)
    ...[0xbf, ...imm(code)], // mov edi, code
    ...[0x0f, 0x05], // syscall
  ]);
}

/** AArch64: the same with movz/movk into x0, x1, x2, x8 and `svc #0`. */
function a64(outAt: number, outLen: number, errAt: number, errLen: number, code: number): Buffer {
  const movz = (rd: number, imm16: number, hw = 0): number => (0xd2800000 | (hw << 21) | (imm16 << 5) | rd) >>> 0;
  const movk = (rd: number, imm16: number, hw: number): number => (0xf2800000 | (hw << 21) | (imm16 << 5) | rd) >>> 0;
  const svc = 0xd4000001;
  const write = (fd: number, at: number, len: number): number[] => [
    movz(0, fd),
    movz(1, at & 0xffff),
    movk(1, at >>> 16, 1),
    movz(2, len),
    movz(8, 64), // write
    svc,
  ];
  const words = [...write(1, outAt, outLen), ...write(2, errAt, errLen), movz(0, code), movz(8, 93), svc]; // exit
  const b = Buffer.alloc(words.length * 4);
  words.forEach((w, i) => b.writeUInt32LE(w, i * 4));
  return b;
}

/** The bytes of a Linux executable for this machine that prints `stdout` and `stderr` and exits with `exitCode`. */
export function fakeElf({ stdout = '', stderr = '', exitCode = 0 }: Behaviour): Buffer {
  if (platform !== 'linux' || (arch !== 'x64' && arch !== 'arm64'))
    throw new Error(`the fake Salvium programs are Linux x86-64 or AArch64 executables; this is ${platform} ${arch}`);
  const out = Buffer.from(stdout);
  const err = Buffer.from(stderr);
  if (out.length > 0xffff || err.length > 0xffff) throw new Error('fakeElf: texts up to 64 KiB');
  const assemble = arch === 'x64' ? x64 : a64;
  const codeLen = assemble(0, 0, 0, 0, 0).length;
  const outAt = CODE_AT + codeLen;
  const errAt = outAt + out.length;
  const code = assemble(BASE + outAt, out.length, BASE + errAt, err.length, exitCode);
  const size = errAt + err.length;

  const h = Buffer.alloc(CODE_AT);
  h.writeUInt32BE(0x7f454c46, 0); // \x7fELF
  h[4] = 2; // 64-bit
  h[5] = 1; // little-endian
  h[6] = 1; // ELF version
  h.writeUInt16LE(2, 16); // ET_EXEC
  h.writeUInt16LE(arch === 'x64' ? 0x3e : 0xb7, 18); // EM_X86_64 / EM_AARCH64
  h.writeUInt32LE(1, 20); // version
  h.writeBigUInt64LE(BigInt(BASE + CODE_AT), 24); // entry
  h.writeBigUInt64LE(64n, 32); // program headers at
  h.writeUInt16LE(64, 52); // header size
  h.writeUInt16LE(56, 54); // program header size
  h.writeUInt16LE(1, 56); // one program header
  // PT_LOAD, R+X, the whole file at BASE
  h.writeUInt32LE(1, 64);
  h.writeUInt32LE(5, 68);
  h.writeBigUInt64LE(0n, 72); // offset
  h.writeBigUInt64LE(BigInt(BASE), 80); // vaddr
  h.writeBigUInt64LE(BigInt(BASE), 88); // paddr
  h.writeBigUInt64LE(BigInt(size), 96); // filesz
  h.writeBigUInt64LE(BigInt(size), 104); // memsz
  h.writeBigUInt64LE(0x1000n, 112); // align
  return Buffer.concat([h, code, out, err]);
}
