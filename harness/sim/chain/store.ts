// Persistence of the simulated chain inside the daemon's data dir, in the folder where the
// real daemon keeps LMDB (`<data-dir>/testnet/19/lmdb/`). Blocks are appended one JSON line
// each, so saving is O(1) per block; a torn last line (a crash mid-write) is ignored on load. The daemon opens its
// chain lazily (openChainLazily): the last block is read from the file's end at once, the rest behind its start.
// The pool is saved whole (POOL_FILE) when it loses transactions (a block, a flush, a pop), and a
// transaction it takes is appended to POOL_JOURNAL, one line each, which the next whole save
// empties: taking a transaction costs the same with 10 or 10,000 in the pool.
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decode, encode } from './codec.js';
import { applyBlock, height, newLedger, revalidatePool, topBlock, type Ledger } from './ledger.js';
import type { Block, Tx } from './types.js';
import { makeDirs } from '../common/mkdir.js';
import { BLOCKS_FILE } from './height.js';

export { BLOCKS_FILE };

export const POOL_FILE = 'sim-pool.json';
/** The transactions the pool took since POOL_FILE was written, one JSON line each (`{tx, at}`). */
export const POOL_JOURNAL = 'sim-pool-taken.jsonl';

export interface ChainStore {
  readonly dir: string;
  appendBlock(block: Block): void;
  /** Write the whole chain again (after blocks were popped). */
  rewrite(l: Ledger): void;
  /** Save the whole pool (and empty the journal). */
  savePool(l: Ledger): void;
  /** Note transactions the pool took (they are in `l.pool` and `l.poolArrival`): one journal line each. */
  poolTook(l: Ledger, txs: readonly Tx[]): void;
}

/** The chain in `dir`, loaded whole before this returns. */
export function openChain(dir: string): { ledger: Ledger; store: ChainStore } {
  makeDirs(dir);
  const ledger = newLedger();
  const blocksPath = join(dir, BLOCKS_FILE);
  if (existsSync(blocksPath)) {
    const lines = readFileSync(blocksPath, 'utf8').split('\n');
    applyLines(ledger, lines, 0, lines.length);
    cutTornTail(blocksPath, lines, ledger);
  }
  loadPool(ledger, dir);
  return { ledger, store: chainStore(dir) };
}

/**
 * A chain whose blocks load behind the daemon's start, as a real daemon opens its database at once whatever its size.
 * Until `load()` has finished (it yields between chunks of blocks), `ledger` holds part of the chain and its pool is
 * not loaded: only `tip` (the file's last intact block, read from the end of the file alone) and `poolEmpty` may be
 * answered from; everything else waits for `load()`.
 */
export interface LazyChain {
  readonly ledger: Ledger;
  readonly store: ChainStore;
  /** The height and top block hash: from the file's end until loaded, then the ledger's. */
  tip(): { height: number; hash: string };
  /** No transaction was saved in the pool (its answers need no chain). */
  readonly poolEmpty: boolean;
  loaded(): boolean;
  /** Load the whole chain (once: every call returns the same promise). */
  load(): Promise<void>;
}

/** Blocks applied between two turns of the event loop while a chain loads behind (a few milliseconds' work). */
const LOAD_CHUNK = 250;
/** How much of the blocks file's end is read for its last block (a block's line is a few KB at most). */
const TIP_WINDOW = 1 << 20;

export function openChainLazily(dir: string): LazyChain {
  const tip = readTip(join(dir, BLOCKS_FILE));
  // Nothing to read behind: an empty chain (or an end that does not parse) is loaded at once.
  if (!tip) {
    const { ledger, store } = openChain(dir);
    const whole = Promise.resolve();
    return {
      ledger,
      store,
      tip: () => tipOf(ledger),
      poolEmpty: ledger.pool.size === 0,
      loaded: () => true,
      load: () => whole,
    };
  }
  makeDirs(dir);
  const ledger = newLedger();
  let done = false;
  let loading: Promise<void> | undefined;
  const blocksPath = join(dir, BLOCKS_FILE);
  const load = async (): Promise<void> => {
    const lines = (await readFile(blocksPath, 'utf8')).split('\n');
    for (let from = 0; from < lines.length; from += LOAD_CHUNK) {
      if (!applyLines(ledger, lines, from, Math.min(lines.length, from + LOAD_CHUNK))) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    cutTornTail(blocksPath, lines, ledger);
    loadPool(ledger, dir);
    done = true;
  };
  return {
    ledger,
    store: chainStore(dir),
    tip: () => (done ? tipOf(ledger) : tip),
    poolEmpty: savedPoolEmpty(dir),
    loaded: () => done,
    load: () => (loading ??= load()),
  };
}

const tipOf = (l: Ledger): { height: number; hash: string } => ({ height: height(l), hash: topBlock(l).hash });

/**
 * Apply the blocks of `lines[from, to)` in order; false at the first line that is blank, torn (a crash mid-write) or
 * out of order: the chain ends before it.
 */
function applyLines(ledger: Ledger, lines: string[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (!line.trim()) return false;
    let block: Block;
    try {
      block = decode<Block>(line);
    } catch {
      return false;
    }
    if (block.index !== ledger.blocks.length) return false;
    applyBlock(ledger, block);
  }
  return true;
}

/** Cut what follows the last intact block, so that later appends follow it. */
function cutTornTail(blocksPath: string, lines: string[], ledger: Ledger): void {
  const intact = ledger.blocks.length - 1;
  if (intact < lines.filter((l) => l.trim()).length)
    writeFileSync(
      blocksPath,
      lines
        .slice(0, intact)
        .map((l) => l + '\n')
        .join(''),
    );
}

/** The last block of a blocks file that parses (its height and hash), read from the end alone; undefined: none. */
function readTip(blocksPath: string): { height: number; hash: string } | undefined {
  let fd: number;
  try {
    fd = openSync(blocksPath, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, TIP_WINDOW);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, size - n);
    const lines = buf.toString('utf8').split('\n');
    // The window's first line is cut unless the window starts the file.
    for (let i = lines.length - 1; i >= (n < size ? 1 : 0); i--) {
      if (!lines[i]!.trim()) continue;
      try {
        const b = JSON.parse(lines[i]!) as { index?: unknown; hash?: unknown };
        if (typeof b.index === 'number' && typeof b.hash === 'string') return { height: b.index + 1, hash: b.hash };
      } catch {
        // a torn last line: the one before it is the top
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** An empty pool as POOL_FILE holds it is a few dozen bytes: a larger file is not decoded at start to find out. */
const EMPTY_POOL_MAX_BYTES = 1024;

/** The saved pool and its journal hold no transaction (or are absent); read at start, so without decoding a pool. */
function savedPoolEmpty(dir: string): boolean {
  const journal = join(dir, POOL_JOURNAL);
  // A whole save empties the journal: anything in it is a transaction taken since.
  if (existsSync(journal) && statSync(journal).size > 0) return false;
  const pool = join(dir, POOL_FILE);
  if (!existsSync(pool)) return true;
  if (statSync(pool).size > EMPTY_POOL_MAX_BYTES) return false;
  try {
    return decode<{ txs: unknown[] }>(readFileSync(pool, 'utf8')).txs.length === 0;
  } catch {
    return true; // unreadable: loading drops it
  }
}

/** The saved pool and the journal of what it took since, checked against the chain. */
function loadPool(ledger: Ledger, dir: string): void {
  const poolPath = join(dir, POOL_FILE);
  if (existsSync(poolPath)) {
    try {
      const saved = decode<{ txs: Tx[]; arrival: [string, number][]; kept?: string[] }>(readFileSync(poolPath, 'utf8'));
      for (const tx of saved.txs) ledger.pool.set(tx.txid, tx);
      for (const [id, t] of saved.arrival) ledger.poolArrival.set(id, t);
      for (const id of saved.kept ?? []) if (ledger.pool.has(id)) ledger.kept.add(id);
    } catch {
      // an unreadable pool is dropped, as a real daemon may drop its txpool
    }
  }
  const journalPath = join(dir, POOL_JOURNAL);
  if (existsSync(journalPath)) readJournal(ledger, readFileSync(journalPath, 'utf8'));
  if (existsSync(poolPath) || existsSync(journalPath)) revalidatePool(ledger);
}

/** Appends and rewrites of the chain and the pool in `dir`. */
function chainStore(dir: string): ChainStore {
  const blocksPath = join(dir, BLOCKS_FILE);
  const poolPath = join(dir, POOL_FILE);
  const journalPath = join(dir, POOL_JOURNAL);
  return {
    dir,
    appendBlock(block) {
      appendFileSync(blocksPath, encode(block) + '\n');
    },
    rewrite(l) {
      const tmp = `${blocksPath}.tmp`;
      writeFileSync(
        tmp,
        l.blocks
          .slice(1)
          .map((b) => encode(b) + '\n')
          .join(''),
      );
      renameSync(tmp, blocksPath);
    },
    savePool(l) {
      const tmp = `${poolPath}.tmp`;
      writeFileSync(tmp, encode({ txs: [...l.pool.values()], arrival: [...l.poolArrival], kept: [...l.kept] }));
      renameSync(tmp, poolPath);
      // A crash before this line leaves journal lines of transactions the pool may have lost since: loading takes
      // them again and revalidatePool drops those a block spent.
      writeFileSync(journalPath, '');
    },
    poolTook(l, txs) {
      appendFileSync(journalPath, txs.map((tx) => encode({ tx, at: l.poolArrival.get(tx.txid) ?? 0 }) + '\n').join(''));
    },
  };
}

/** The transactions a POOL_JOURNAL's text holds, put in the pool, up to the first torn line (a crash mid-write). */
function readJournal(ledger: Ledger, text: string): void {
  for (const line of text.split('\n')) {
    if (!line.trim()) return;
    let taken: { tx: Tx; at: number };
    try {
      taken = decode<{ tx: Tx; at: number }>(line);
    } catch {
      return;
    }
    ledger.pool.set(taken.tx.txid, taken.tx);
    ledger.poolArrival.set(taken.tx.txid, taken.at);
  }
}
