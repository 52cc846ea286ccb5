// Numbers typed as text — command-line options and environment variables — parsed one way, with
// messages that name the option and the value: `--height: 'abc' is not a whole number`. Only plain
// decimal digits are numbers: no exponent (`1e3`), no hex (`0x10`), no `Infinity`; a value outside
// its range is refused with the range. Config files hold YAML/JSON numbers and are checked against
// the same ranges by their schema (schema.ts).
import { z } from 'zod';
import {
  MAX_BLOCK_TIME,
  MAX_DIFFICULTY,
  MAX_HEIGHT,
  MAX_NODES,
  MAX_THREADS,
  MAX_TIMEOUT_FACTOR,
  MAX_POOL,
  MAX_WORKERS,
  MIN_TIMEOUT_FACTOR,
} from '../limits.js';

export interface NumberRule {
  /** Whole numbers only (else a decimal fraction is allowed). */
  whole: boolean;
  min: number;
  /** The value must be above `min`, not equal to it. */
  minExclusive?: boolean;
  max: number;
  /** Why `max` is the limit, for the message (`saltnet mines to at most 100000`). */
  maxWhy?: string;
}

export const NUMBER_RULES = {
  height: { whole: true, min: 1, max: MAX_HEIGHT, maxWhy: `saltnet mines to height ${MAX_HEIGHT} at most` },
  blocks: { whole: true, min: 1, max: MAX_HEIGHT, maxWhy: `saltnet mines to height ${MAX_HEIGHT} at most` },
  difficulty: { whole: true, min: 1, max: MAX_DIFFICULTY, maxWhy: 'a CPU miner would take hours per block' },
  threads: { whole: true, min: 1, max: MAX_THREADS, maxWhy: 'more threads than CPU cores do not mine faster' },
  timeoutFactor: {
    whole: false,
    min: MIN_TIMEOUT_FACTOR,
    max: MAX_TIMEOUT_FACTOR,
    maxWhy: 'slow machines need 2 or 3',
  },
  workers: { whole: true, min: 1, max: MAX_WORKERS, maxWhy: 'each worker runs a testnet of its own' },
  pool: { whole: true, min: 1, max: MAX_POOL, maxWhy: 'each is a testnet of its own' },
  blockTime: { whole: false, min: 0, max: MAX_BLOCK_TIME, maxWhy: 'a block a day at the least' },
  nodes: { whole: true, min: 1, max: MAX_NODES, maxWhy: 'each node is a daemon of its own' },
} as const satisfies Record<string, NumberRule>;

/** `a whole number from 1 to 100000`, `a number from 0.1 to 100` — what a valid value looks like. */
export function describeRule(r: NumberRule): string {
  const kind = r.whole ? 'a whole number' : 'a number';
  return r.minExclusive ? `${kind} above ${r.min}, at most ${r.max}` : `${kind} from ${r.min} to ${r.max}`;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const EXPONENT = /^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;

/** `v` in plain digits when it has a short exact form (1e3 → "1000"), else undefined. */
function plainDigits(v: number): string | undefined {
  if (!Number.isFinite(v) || Math.abs(v) >= 1e21) return undefined;
  const s = String(v);
  return /e/i.test(s) ? undefined : s;
}

/** Why `text` is not a valid value under `rule` (a short phrase about the value), or its value. */
export function parseNumberText(text: string, rule: NumberRule): { value: number } | { problem: string } {
  const t = text.trim();
  const kind = rule.whole ? 'a whole number' : 'a number';
  if (t === '') return { problem: `needs ${kind}` };
  const shown = `'${text}'`;
  if (EXPONENT.test(t)) {
    const v = Number(t);
    const digits = plainDigits(v);
    const inRange = v <= rule.max && (rule.minExclusive ? v > rule.min : v >= rule.min);
    const hint = digits !== undefined && inRange ? ` (${digits})` : `: ${describeRule(rule)}`;
    return { problem: `${shown} is written with an exponent; write it in plain digits${hint}` };
  }
  if (!DECIMAL.test(t)) return { problem: `${shown} is not ${kind}` };
  if (rule.whole && t.includes('.') && !/^-?\d+\.0*$/.test(t)) return { problem: `${shown} is not ${kind}` };
  const value = Number(t);
  if (value > rule.max) return { problem: `${t} is more than ${rule.max}${rule.maxWhy ? ` (${rule.maxWhy})` : ''}` };
  if (rule.minExclusive ? value <= rule.min : value < rule.min)
    return { problem: `${t} is too small: it must be ${rule.minExclusive ? 'above' : 'at least'} ${rule.min}` };
  return { value };
}

/** The value of `text`, or an Error `<name>: <problem>` (name: `--height`, `<blocks>`, `env SALTNET_X`). */
export function numberOrThrow(name: string, text: unknown, rule: NumberRule): number {
  if (Array.isArray(text)) throw new Error(`${name} is given ${text.length} times; give it once`);
  if (typeof text === 'number') text = String(text);
  if (typeof text !== 'string') throw new Error(`${name} needs ${rule.whole ? 'a whole number' : 'a number'}`);
  const r = parseNumberText(text, rule);
  if ('problem' in r) throw new Error(`${name}: ${r.problem}`);
  return r.value;
}

/**
 * A yargs option (or positional) that takes a number: the text is parsed by parseNumberText, so a
 * bad value is refused with `--height: 'abc' is not a whole number` before any command runs.
 */
export function numberOption(
  flag: string,
  rule: NumberRule,
  describe: string,
  positional = false,
): { type: 'string'; describe: string; coerce: (v: unknown) => number } {
  const name = positional ? `<${flag}>` : `--${flag}`;
  return {
    type: 'string',
    describe: `${describe} (${describeRule(rule)})`,
    coerce: (v: unknown) => numberOrThrow(name, v, rule),
  };
}

/** A number within its rule's range, as a config file's schema (the same ranges as the command line's). */
export function ranged(r: NumberRule): z.ZodNumber {
  let n = r.whole ? z.number().int() : z.number().finite();
  n = r.minExclusive ? n.gt(r.min) : n.gte(r.min);
  return n.lte(r.max);
}
