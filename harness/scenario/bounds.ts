// Upper bounds on what a scenario file may ask for, checked when the file is read, so that a file
// from a stranger cannot make the harness run for hours, mine without end or fill memory: the
// file's size, its steps and wallets, heights, blocks, waits, funds (by the blocks they cost),
// regular expressions and metadata files. Each bound is far above what a real test needs (the
// example scenarios reach at most height 1401, with under 100 blocks a step and waits of a minute).
//
// The numbers the zod schema bounds itself (`.max()`, so that editors see them in the JSON Schema)
// get their reason from limitReason(); the rest are checked here on the parsed document.
import { MAX_HEIGHT } from '../limits.js';
import { isPlainObject } from '../common/plain-object.js';
import type { PathSegment } from '../common/path.js';
import { problem, type Obj, type SchemaProblem } from './schema/problem.js';

/**
 * A scenario file is refused unread beyond this size: the biggest example is under 4 KiB, and the
 * YAML parser needs about a second of CPU and 200 MB for 256 KiB of flow lists ([1,1,1,…]).
 */
export const MAX_SCENARIO_BYTES = 256 * 1024;
export const MAX_STEPS = 1000;
/** Extra wallets besides main: each is a wallet RPC process of its own (~300 MB on real Salvium). */
export const MAX_WALLETS = 20;
/** Problems printed for a file that does not parse; the rest are counted. */
export const MAX_PROBLEMS_SHOWN = 20;
/** Validation stops looking after this many problems: a huge broken file costs no more than a small one. */
export const MAX_PROBLEMS_COLLECTED = 200;
/**
 * `requires.height` and `mine: {to: …}`; also the chain funding may grow to (every fork is active by 1400): the same
 * bound as --height.
 */
export { MAX_HEIGHT };
/** Blocks one `mine` step, or one `wait` with `mine: true`, may mine. */
export const MAX_BLOCKS_PER_STEP = 10_000;
/**
 * Blocks the steps of a scenario may mine in all (a `wait` with `mine: true` and no `blocks` counts
 * MAX_BLOCKS_PER_STEP).
 */
export const MAX_BLOCKS_MINED = 100_000;
/**
 * Blocks of mining a scenario's funding may cost in all (`requires.unlocked`, `wallets.<name>.unlocked`, and each held
 * token's cost): every unit of the fund asset a scenario's wallets get is mined first, at the backend's typical reward
 * a block (testnet/mining/funding.ts fundingBlocks). 2000 blocks take about 2.5 minutes on real Salvium at difficulty 1
 * (where the chain states are built) and half an hour at 500; the example scenarios need under 100.
 */
export const MAX_FUNDING_BLOCKS = 2000;
/** The longest a `wait` waits; also the bound of a wait that gives only `blocks`. */
export const MAX_WAIT_SECONDS = 3600;
export const MAX_PATTERN_LENGTH = 1000;
/** Longest text a `matches` looks at: RE2 is linear, but its constant is large for big patterns. */
export const MAX_SUBJECT_LENGTH = 65_536;
export const MAX_METADATA_FILE_BYTES = 1024 * 1024;

/** `256 KiB (262144 bytes)`, `1 MiB (1048576 bytes)`, `1000 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB (${n} bytes)`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB (${n} bytes)`;
  return `${n} bytes`;
}

const HEIGHT_WHY = `heights go up to ${MAX_HEIGHT}, so that a scenario cannot mine for hours; every Salvium fork is active by height 1400`;
const BLOCKS_WHY = `one step mines at most ${MAX_BLOCKS_PER_STEP} blocks, so that it cannot mine for hours`;
const SECONDS_WHY = `a wait lasts at most ${MAX_WAIT_SECONDS} seconds (an hour)`;

/** Why the number at `path` has the maximum the schema gives it (zod's too_big issues), if it has one. */
export function limitReason(path: readonly PathSegment[]): string | undefined {
  const names = path.filter((s): s is string => typeof s === 'string');
  const last = names.at(-1);
  const parent = names.at(-2);
  if ((parent === 'requires' && last === 'height') || (parent === 'mine' && last === 'to')) return HEIGHT_WHY;
  if (
    (parent === 'steps' && last === 'mine') ||
    (parent === 'mine' && last === 'blocks') ||
    (parent === 'wait' && last === 'blocks')
  )
    return BLOCKS_WHY;
  if (parent === 'wait' && last === 'seconds') return SECONDS_WHY;
  return undefined;
}

/**
 * Problems of size that make the rest of the validation not worth doing (too many steps or
 * wallets): checked first, and when there are any, they are the only problems reported.
 */
export function sizeProblems(doc: Obj): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  if (Array.isArray(doc.steps) && doc.steps.length > MAX_STEPS) {
    out.push(
      problem(
        ['steps'],
        `the scenario has ${doc.steps.length} steps; at most ${MAX_STEPS} (split it into several files)`,
        `at most ${MAX_STEPS} steps`,
      ),
    );
  }
  if (isPlainObject(doc.wallets) && Object.keys(doc.wallets).length > MAX_WALLETS) {
    out.push(
      problem(
        ['wallets'],
        `the scenario declares ${Object.keys(doc.wallets).length} wallets; at most ${MAX_WALLETS} (each one is a wallet RPC process of its own)`,
        `at most ${MAX_WALLETS} wallets`,
      ),
    );
  }
  return out;
}
