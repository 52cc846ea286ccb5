// The height of a stored chain, read without loading it (the harness checks a cached chain state
// against its manifest with it): BLOCKS_FILE holds one JSON line per block after the genesis.

/** The file in the daemon's chain folder that holds the blocks (store.ts appends to it). */
export const BLOCKS_FILE = 'sim-blocks.jsonl';

/**
 * The height (the block count, genesis included) of the chain a BLOCKS_FILE's text holds, as openChain loads it:
 * the lines up to the first that is torn or out of order.
 */
export function blocksFileHeight(text: string): number {
  let height = 1;
  for (const line of text.split('\n')) {
    if (!line.trim()) break;
    let index: unknown;
    try {
      index = (JSON.parse(line) as { index?: unknown }).index;
    } catch {
      break;
    }
    if (index !== height) break;
    height++;
  }
  return height;
}
