// Upper bounds on what a scenario file may ask for, checked when the file is read, so that a file
// from a stranger cannot make the harness run for hours, mine without end or fill memory: the
// file's size, its steps and wallets, heights, blocks, waits, funds, regular expressions and
// metadata files. Each bound is far above what a real test needs (the example scenarios reach at most
// height 1401, with under 100 blocks a step and waits of a minute).
//
// The numbers the zod schema bounds itself (`.max()`, so that editors see them in the JSON Schema)
// get their reason from limitReason(); the rest are checked here on the parsed document.
import { MAX_HEIGHT } from '../limits.js';
import { amountUnits, backendOfUnit, BACKENDS, fundingAsset, type BackendSpec } from '../testnet/backends.js';
import { planMining } from '../testnet/funding.js';
import { formatAmountShort, parseAmount } from '../testnet/amounts.js';
import type { PathSegment } from '../common/path.js';
import type { SchemaProblem } from './schema.js';

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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
const problem = (
  path: PathSegment[],
  message: string,
  expected: string,
  at: SchemaProblem['at'] = 'value',
): SchemaProblem => ({ path, at, message, expected });

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
  if (isObj(doc.wallets) && Object.keys(doc.wallets).length > MAX_WALLETS) {
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

// ---- funds ----

/**
 * Atomic units of the whole supply of an asset: its coin's (BACKENDS); a token's is bounded by Salvium's money supply,
 * the coin it is created on.
 */
function supplyOf(asset: string): bigint {
  return (backendOfUnit(asset) ?? BACKENDS.salvium).coin.supply;
}

/** The backend that funds a wallet in this asset by mining (the runner's funding plan), if one does. */
function fundingBackend(asset: string): BackendSpec | undefined {
  return Object.values(BACKENDS).find((b) => fundingAsset(b) === asset);
}

/**
 * The most of its fund asset that the runner's funding plan (testnet/funding.ts planMining: blocks
 * of `typicalReward` each, unlocked `coinbaseUnlock` blocks later) can give a wallet with the chain
 * no taller than MAX_HEIGHT.
 */
export function maxFundable(spec: BackendSpec, height = MAX_HEIGHT): bigint {
  const fits = (need: bigint): boolean => {
    const plan = planMining({
      height: 0,
      target: height,
      need,
      fundFromHeight: spec.fundFromHeight,
      typicalReward: spec.typicalReward,
      coinbaseUnlock: spec.coinbaseUnlock,
      minFundBlocks: spec.minFundBlocks,
    });
    return plan.fundedTo + spec.coinbaseUnlock + 2 <= height;
  };
  // planMining gives need/typicalReward + 1 blocks; the plan ends in time while its blocks fit below the height.
  let blocks = BigInt(height - spec.fundFromHeight - spec.coinbaseUnlock - 2 - 1);
  while (blocks > 0n && !fits(blocks * spec.typicalReward)) blocks--;
  return blocks > 0n ? blocks * spec.typicalReward : 0n;
}

const fundableCache = new Map<string, bigint>();
function fundable(spec: BackendSpec): bigint {
  let v = fundableCache.get(spec.name);
  if (v === undefined) fundableCache.set(spec.name, (v = maxFundable(spec)));
  return v;
}

const show = (atomic: bigint, asset: string): string =>
  amountUnits().has(asset) ? formatAmountShort(atomic, asset) : `${atomic} atomic units of ${asset}`;

/** Every amount of `requires.unlocked` and `wallets.<name>.unlocked`, with its path. */
function fundsAsked(doc: Obj): { asset: string; amount: bigint; path: PathSegment[] }[] {
  const maps: { m: unknown; path: PathSegment[] }[] = [];
  if (isObj(doc.requires)) maps.push({ m: doc.requires.unlocked, path: ['requires', 'unlocked'] });
  if (isObj(doc.wallets))
    for (const [w, d] of Object.entries(doc.wallets))
      if (isObj(d)) maps.push({ m: d.unlocked, path: ['wallets', w, 'unlocked'] });
  const out: { asset: string; amount: bigint; path: PathSegment[] }[] = [];
  for (const { m, path } of maps) {
    if (!isObj(m)) continue;
    for (const [asset, v] of Object.entries(m)) {
      try {
        out.push({ asset, amount: parseAmount(v), path: [...path, asset] });
      } catch {
        /* not an amount: the schema says so */
      }
    }
  }
  return out;
}

/** Funds above the supply of their asset, or (the fund asset) more than mining to MAX_HEIGHT can give. */
function fundProblems(doc: Obj): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const totals = new Map<string, bigint>();
  for (const f of fundsAsked(doc)) {
    const supply = supplyOf(f.asset);
    if (f.amount > supply) {
      out.push(
        problem(
          f.path,
          `${show(f.amount, f.asset)} is more than the chain can ever mint: the whole supply is ${show(supply, f.asset)}`,
          `at most ${show(supply, f.asset)}`,
        ),
      );
      continue;
    }
    const spec = fundingBackend(f.asset);
    if (!spec) continue;
    const total = (totals.get(f.asset) ?? 0n) + f.amount;
    totals.set(f.asset, total);
    const max = fundable(spec);
    if (total > max) {
      const what =
        total === f.amount ? show(f.amount, f.asset) : `${show(total, f.asset)} in all (requires and wallets together)`;
      out.push(
        problem(
          f.path,
          `funding ${what} needs more blocks than a chain of height ${MAX_HEIGHT} has: the runner mines ${show(spec.typicalReward, f.asset)} a block to the test wallet, so at most ${show(max, f.asset)} can be funded`,
          `at most ${show(max, f.asset)} in all`,
        ),
      );
      totals.set(f.asset, -(2n ** 200n)); // one problem per asset
    }
  }
  return out;
}

// ---- blocks mined by the steps ----

/**
 * The most blocks a step can mine: `mine`'s count, or a mining wait's `blocks` (MAX_BLOCKS_PER_STEP when it has none).
 */
function blocksOf(step: Obj): { blocks: number; path: PathSegment[] } | undefined {
  const m = step.mine;
  if (typeof m === 'number') return { blocks: m, path: ['mine'] };
  if (isObj(m) && typeof m.blocks === 'number') return { blocks: m.blocks, path: ['mine', 'blocks'] };
  const w = step.wait;
  if (isObj(w) && w.mine === true)
    return { blocks: typeof w.blocks === 'number' ? w.blocks : MAX_BLOCKS_PER_STEP, path: ['wait'] };
  return undefined;
}

function minedProblems(doc: Obj): SchemaProblem[] {
  if (!Array.isArray(doc.steps)) return [];
  let total = 0;
  for (let i = 0; i < doc.steps.length; i++) {
    const st: unknown = doc.steps[i];
    const b = isObj(st) ? blocksOf(st) : undefined;
    if (!b || !Number.isFinite(b.blocks) || b.blocks <= 0) continue;
    total += Math.min(b.blocks, MAX_BLOCKS_PER_STEP);
    if (total > MAX_BLOCKS_MINED) {
      return [
        problem(
          ['steps', i, ...b.path],
          `the steps up to this one mine up to ${total} blocks; a scenario mines at most ${MAX_BLOCKS_MINED} in all (a wait with mine: true and no blocks counts ${MAX_BLOCKS_PER_STEP})`,
          `at most ${MAX_BLOCKS_MINED} blocks mined by the steps in all`,
        ),
      ];
    }
  }
  return [];
}

/** Bounds across the document that no single field's schema can check: funds, and blocks mined in all. */
export function limitProblems(doc: Obj): SchemaProblem[] {
  return [...fundProblems(doc), ...minedProblems(doc)];
}

// ---- documentation ----

/** The "Limits" section of docs/scenario-language.md. */
export function limitsMarkdown(): string {
  // each fund asset once (the simulator funds as Salvium does)
  const funded = [...new Map(Object.values(BACKENDS).map((b) => [fundingAsset(b), b])).values()];
  const fundableText = funded.map((b) => show(fundable(b), fundingAsset(b))).join(', ');
  const supplies = [...new Map(Object.values(BACKENDS).map((b) => [b.coin.unit, b])).values()]
    .map((b) => `${b.coin.chain}: ${show(b.coin.supply, b.coin.unit)}`)
    .join(', ');
  const rows: [string, string][] = [
    [
      'scenario file',
      `at most ${formatBytes(MAX_SCENARIO_BYTES)}; a larger file (or /dev/zero, a FIFO, a folder) is refused unread`,
    ],
    ['steps', `at most ${MAX_STEPS}`],
    ['wallets', `at most ${MAX_WALLETS} besides \`main\` (each is a wallet RPC process of its own)`],
    [
      'problems reported',
      `the first ${MAX_PROBLEMS_SHOWN} are printed and the rest counted; the check stops after ${MAX_PROBLEMS_COLLECTED}`,
    ],
    ['`requires.height`, `mine: {to}`', `at most ${MAX_HEIGHT}`],
    ['`mine`, `mine: {blocks}`, `wait.blocks`', `at most ${MAX_BLOCKS_PER_STEP} blocks a step`],
    [
      'blocks mined by the steps in all',
      `at most ${MAX_BLOCKS_MINED} (a \`wait\` with \`mine: true\` and no \`blocks\` counts ${MAX_BLOCKS_PER_STEP}, and stops after that many)`,
    ],
    [
      '`wait.seconds`',
      `at most ${MAX_WAIT_SECONDS}; every wait gives up after ${MAX_WAIT_SECONDS} s, also one that gives only \`blocks\``,
    ],
    [
      '`requires.unlocked`, `wallets.<name>.unlocked`',
      `never above the asset's whole supply (${supplies}); the fund asset in all at most what funding can mine below height ${MAX_HEIGHT}: ${fundableText}`,
    ],
    [
      '`matches`',
      `a pattern of at most ${MAX_PATTERN_LENGTH} characters, run by RE2 (linear time: no backreferences, no lookaround); values longer than ${MAX_SUBJECT_LENGTH} characters do not match`,
    ],
    [
      '`metadata: {file}`',
      `a regular file of at most ${formatBytes(MAX_METADATA_FILE_BYTES)}, inside the scenario file's folder or the working directory once symbolic links are followed; \`saltnet run --allow-files-outside\` (runner option \`allowFilesOutside\`) lifts the folder rule, not the others`,
    ],
  ];
  return [
    '## Limits',
    '',
    'A scenario file may come from anyone, so saltnet checks it against these bounds when it reads it, before',
    'any testnet starts: a file that asks for more is refused with the line, the field, the limit and why.',
    'Each bound is far above what a test needs (the example scenarios stay under height 1500, under 100',
    'blocks a step and waits of a minute).',
    '',
    '| what | limit |',
    '| --- | --- |',
    ...rows.map(([w, l]) => `| ${w} | ${l} |`),
  ].join('\n');
}
