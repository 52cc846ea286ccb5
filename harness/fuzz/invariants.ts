// What any chain must keep, checked on one side's run of a program (`saltnet fuzz --invariants`):
// - no answer is a server failure: an HTTP 5xx, or a message that is a crash (a stack trace, an uncaught C++ or
//   JavaScript exception);
// - the same question asked right before and right after a wallet RPC restarts gets the same answer (within the
//   tolerances `saltnet diff` states, compareAnswers);
// - no money is made or lost among the program's wallets: mining pays the testnet's miner, not them, and nothing is
//   paid outside them, so their SAL1 at the end is their SAL1 at the start less every fee and burn of what they
//   sent (read from each send's answer). Checked only when every step passed (the last steps mine what is pending).
// - after a `sync` of nodes all in one group, every node stands at one height.
import { compareAnswers } from '../diff/compare.js';
import type { ScenarioResult, StepResult } from '../scenario/types.js';
import { AFTER, BEFORE, type FuzzProgram } from './program.js';
import type { FuzzStep } from './forms.js';

export interface Violation {
  /** 1-based step number. */
  step?: number;
  rule: 'server failure' | 'restart' | 'money' | 'one top';
  detail: string;
}

const CRASH =
  /(terminate called|std::|Assertion .* failed|Segmentation fault|stack trace|Traceback|\n\s+at \S+ \(|TypeError|ReferenceError|Cannot read propert|undefined is not|Internal Server Error)/;

type Answer = { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } };

function serverFailures(r: ScenarioResult): Violation[] {
  const out: Violation[] = [];
  for (const s of r.steps) {
    const a = s.response as Answer | undefined;
    const code = Number(a?.error?.code);
    const texts = [JSON.stringify(s.response ?? null), s.failure?.message ?? ''];
    if (code >= 500 && code <= 599) out.push({ step: s.index + 1, rule: 'server failure', detail: `HTTP ${code}` });
    else if (texts.some((t) => CRASH.test(t)))
      out.push({
        step: s.index + 1,
        rule: 'server failure',
        detail: `a crash in the answer: ${texts.join(' ').slice(0, 300)}`,
      });
  }
  return out;
}

/**
 * An answer with get_transfers' `in` sorted: wallet2 keeps incoming payments in a hash map that loading the wallet
 * file fills again, so a restarted wallet lists the same entries in another order (real v1.1.3c, and the simulator).
 */
function inAnyOrder(a: unknown): unknown {
  const result = (a as Answer | undefined)?.result;
  if (!Array.isArray(result?.in)) return a;
  const key = (e: unknown): string => {
    const o = e as Record<string, unknown>;
    return [String(o.height).padStart(12, '0'), o.txid, String(o.amount)].join('|');
  };
  const sorted = [...(result.in as unknown[])].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  return { ...(a as object), result: { ...result, in: sorted } };
}

function restarts(p: FuzzProgram, r: ScenarioResult): Violation[] {
  const out: Violation[] = [];
  for (let i = 1; i + 1 < p.steps.length; i++) {
    const [before, step, after] = [p.steps[i - 1]!, p.steps[i]!, p.steps[i + 1]!];
    if (step.restart !== 'wallet' || JSON.stringify(before) !== JSON.stringify(after)) continue;
    const [ra, rb] = [r.steps[i - 1], r.steps[i + 1]];
    if (ra?.status !== 'passed' || rb?.status !== 'passed') continue;
    for (const d of compareAnswers(inAnyOrder(ra.response), inAnyOrder(rb.response)))
      out.push({ step: i + 2, rule: 'restart', detail: `${d.path}: ${d.a} before the restart, ${d.b} after` });
  }
  return out;
}

const big = (v: unknown): bigint =>
  typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string' ? BigInt(v) : 0n;
const sum = (v: unknown): bigint => (Array.isArray(v) ? v.reduce<bigint>((n, x) => n + big(x), 0n) : big(v));

/** The SAL1 a passed step's transaction took out of the program's wallets: fees, and a token creation's burn. */
function spent(step: FuzzStep, s: StepResult, held: Map<string, bigint>): bigint {
  const result = (s.response as Answer | undefined)?.result;
  if (!result) return 0n;
  if ('transfer' in step || 'transfer_split' in step || 'sweep_all' in step) {
    const body = (step.transfer ?? step.transfer_split ?? step.sweep_all) as Record<string, unknown>;
    const fee = 'fee_list' in result ? sum(result.fee_list) : big(result.fee);
    if (body.do_not_relay) {
      held.set(String(result.tx_metadata ?? (result.tx_metadata_list as unknown[] | undefined)?.[0]), fee);
      return 0n;
    }
    return fee;
  }
  if ('create_token' in step) return sum(result.fee_list) + 1000n * 100_000_000n;
  const call = step.call as { method?: string; params?: { hex?: string } } | undefined;
  if (call?.method === 'relay_tx') {
    const hex = String((s.request as { params?: { hex?: unknown } } | undefined)?.params?.hex);
    const fee = held.get(hex) ?? 0n;
    held.delete(hex); // relaying it again costs nothing more
    return fee;
  }
  return 0n;
}

function money(p: FuzzProgram, r: ScenarioResult): Violation[] {
  if (r.status !== 'passed') return [];
  let before = 0n;
  let after = 0n;
  let out = 0n;
  const held = new Map<string, bigint>();
  p.steps.forEach((step, i) => {
    const s = r.steps[i]!;
    const total = big((s.response as Answer | undefined)?.result?.total_balance);
    if (typeof step.name === 'string' && step.name.startsWith(BEFORE)) before += total;
    else if (typeof step.name === 'string' && step.name.startsWith(AFTER)) after += total;
    else out += spent(step, s, held);
  });
  if (before - out === after) return [];
  return [
    {
      rule: 'money',
      detail: `the wallets held ${before} SAL1 atomic units at the start and ${after} at the end, but sent ${out} in fees and burns: ${after - (before - out)} made`,
    },
  ];
}

/** A sync of one group of nodes (after a heal) leaves them at one height. */
function oneTop(p: FuzzProgram, r: ScenarioResult): Violation[] {
  const out: Violation[] = [];
  p.steps.forEach((step, i) => {
    const s = r.steps[i];
    if (!('sync' in step) || s?.status !== 'passed') return;
    const result = (s.response as { result?: { groups?: unknown[]; heights?: Record<string, number> } }).result;
    if (result?.groups?.length !== 1) return;
    const heights = Object.entries(result.heights ?? {});
    if (new Set(heights.map(([, h]) => h)).size > 1)
      out.push({
        step: i + 1,
        rule: 'one top',
        detail: `after sync the nodes stand at ${heights.map(([n, h]) => `${n} ${h}`).join(', ')}`,
      });
  });
  return out;
}

/** Every invariant the run of `p` broke. */
export function checkInvariants(p: FuzzProgram, r: ScenarioResult): Violation[] {
  return [...serverFailures(r), ...restarts(p, r), ...money(p, r), ...oneTop(p, r)];
}
