// Reading a snapshot archive: node-tar's Parser (strict: every warning is an error) gives the
// entries one at a time; nothing here writes anything.
import type { Parser, ReadEntry } from 'tar';
import { importError } from './errors.js';

/** A node-tar parse error: strict mode turns every warning into one, with the warning's code. */
export function isTarError(e: unknown): e is Error & { tarCode: string } {
  return e instanceof Error && typeof (e as { tarCode?: unknown }).tarCode === 'string';
}

export const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * The entries of a node-tar Parser, one at a time (the parser emits the next entry only when the
 * current one has been read). A parse or input error is thrown by the next call that waits on the
 * parser, and an entry node-tar skips (an unknown type, an oversized pax record) is an error too.
 */
export class TarEntries {
  private readonly ready: ReadEntry[] = [];
  private current: ReadEntry | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(parser: Parser, archive: string) {
    parser.on('entry', (e: ReadEntry) => {
      this.ready.push(e);
      this.notify();
    });
    parser.on('ignoredEntry', (e: ReadEntry) => {
      const what = e.meta
        ? `an oversized ${e.type} entry (${e.size} bytes, the limit is ${parser.maxMetaEntrySize})`
        : `${e.path} has an unsupported entry type (${e.header.typeKey})`;
      this.fail(importError('BAD_ARCHIVE', archive, what));
    });
    parser.on('error', (e: unknown) => this.fail(e));
    parser.on('end', () => {
      this.ended = true;
      this.notify();
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Stop: the error is thrown to the reader, and an entry being read ends at once. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.current?.destroy();
    this.notify();
  }

  /** Throw the error that stopped the reading, if any. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** The next entry (what the caller did not read of the previous one is skipped), or null at the end. */
  async next(): Promise<ReadEntry | null> {
    if (this.current && !this.current.emittedEnd) this.current.resume();
    this.current = undefined;
    for (;;) {
      this.check();
      const e = this.ready.shift();
      if (e) return (this.current = e);
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  /** The content of the current entry, in chunks. */
  async *body(e: ReadEntry): AsyncGenerator<Buffer> {
    this.check();
    try {
      for await (const c of e) {
        yield c;
        this.check();
      }
    } catch (err) {
      this.check();
      throw err;
    }
    this.check();
  }
}
