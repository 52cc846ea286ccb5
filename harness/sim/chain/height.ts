// The height of a stored chain, read without loading it (the harness checks a cached chain state
// against its manifest with it): BLOCKS_FILE holds one JSON line per block after the genesis.

/** The file in the daemon's chain folder that holds the blocks (store.ts appends to it). */
export const BLOCKS_FILE = 'sim-blocks.jsonl';

/** How a stored block's line starts (codec.ts writes `index` first): its index is read without parsing the line. */
const INDEX_PREFIX = Buffer.from('{"index":');
const NEWLINE = 0x0a;
const CLOSE = 0x7d; // '}'
const COMMA = 0x2c;
/** Bytes up to a space are white space (a blank line ends the chain, as String.trim finds it). */
const SPACE = 0x20;

/** The index a line starting with INDEX_PREFIX names (its digits up to the comma), or undefined. */
function indexOf(line: Buffer): number | undefined {
  if (!line.subarray(0, INDEX_PREFIX.length).equals(INDEX_PREFIX)) return undefined;
  let n = 0;
  let i = INDEX_PREFIX.length;
  for (; i < line.length && line[i]! >= 0x30 && line[i]! <= 0x39; i++) n = n * 10 + line[i]! - 0x30;
  return i > INDEX_PREFIX.length && line[i] === COMMA ? n : undefined;
}

/**
 * The height (the block count, genesis included) of the chain a BLOCKS_FILE's bytes hold, as openChain loads it:
 * the lines up to the first that is torn or out of order. A line that starts with its index and ends its object is
 * taken by its index alone; the last line (where a torn write can be) and any other line are parsed whole. At height
 * 20,000 (27 MB) this takes a fraction of the time a parse of every line takes.
 */
export function blocksFileHeight(bytes: Buffer): number {
  let height = 1;
  let at = 0;
  let lastAt = bytes.length;
  while (lastAt > 0 && bytes[lastAt - 1]! <= SPACE) lastAt--;
  // Where the last line with any text starts.
  lastAt = bytes.lastIndexOf(NEWLINE, lastAt - 1) + 1;
  while (at < bytes.length) {
    const end = bytes.indexOf(NEWLINE, at);
    const line = bytes.subarray(at, end === -1 ? bytes.length : end);
    const last = at >= lastAt;
    at = end === -1 ? bytes.length : end + 1;
    if (line.every((b) => b <= SPACE)) break;
    let index = !last && line[line.length - 1] === CLOSE ? indexOf(line) : undefined;
    if (index === undefined)
      try {
        const parsed = (JSON.parse(line.toString('utf8')) as { index?: unknown }).index;
        if (typeof parsed !== 'number') break;
        index = parsed;
      } catch {
        break;
      }
    if (index !== height) break;
    height++;
  }
  return height;
}
