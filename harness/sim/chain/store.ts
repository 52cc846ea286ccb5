// Persistence of the simulated chain inside the daemon's data dir, in the folder where the
// real daemon keeps LMDB (`<data-dir>/testnet/19/lmdb/`). Blocks are appended one JSON line
// each, so saving is O(1) per block; a torn last line (a crash mid-write) is ignored on load.
// The pool is saved whole (POOL_FILE) when it loses transactions (a block, a flush, a pop), and a
// transaction it takes is appended to POOL_JOURNAL, one line each, which the next whole save
// empties: taking a transaction costs the same with 10 or 10,000 in the pool.
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, encode } from './codec.js';
import { applyBlock, newLedger, revalidatePool, type Ledger } from './ledger.js';
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

export function openChain(dir: string): { ledger: Ledger; store: ChainStore } {
  makeDirs(dir);
  const ledger = newLedger();
  const blocksPath = join(dir, BLOCKS_FILE);
  if (existsSync(blocksPath)) {
    const lines = readFileSync(blocksPath, 'utf8').split('\n');
    let intact = 0;
    for (const line of lines) {
      if (!line.trim()) break;
      let block: Block;
      try {
        block = decode<Block>(line);
      } catch {
        break; // torn final write: everything before it is intact
      }
      if (block.index !== ledger.blocks.length) break;
      applyBlock(ledger, block);
      intact++;
    }
    // Cut a torn tail so that later appends follow the last intact block.
    if (intact < lines.filter((l) => l.trim()).length)
      writeFileSync(
        blocksPath,
        lines
          .slice(0, intact)
          .map((l) => l + '\n')
          .join(''),
      );
  }
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
  const store: ChainStore = {
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
  return { ledger, store };
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
