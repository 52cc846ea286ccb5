// What the rules beyond the structure share: where problems are collected (at most
// MAX_PROBLEMS_COLLECTED), and the checks several step kinds make (wallet references, addresses,
// raw request keys that look misspelt, expectation paths).
import type { PathSegment } from '../../common/path.js';
import { isPlainObject } from '../../common/plain-object.js';
import { suggest } from '../../common/suggest.js';
import { isTemplateString } from '../interpolate.js';
import { MAX_PROBLEMS_COLLECTED } from '../bounds.js';
import { RESPONSE_PATH_EXPECTED, addressText, responsePathProblem } from './leaves.js';
import type { SchemaProblem } from './problem.js';
import { NAME_RE, didYouMean, isAsset } from './vocabulary.js';
import { amountUnits } from '../../coin/backends.js';
import { NODE_NAME, unknownNode } from '../../network/topology.js';

export interface RuleCtx {
  out: SchemaProblem[];
  wallets: Set<string>;
  /** The scenario's nodes (its `nodes:`, 1 when it has none). */
  nodes: number;
  /** save name → index of the step that saves it */
  savedBy: Map<string, number>;
}

/** Thrown by ruleProblem() once MAX_PROBLEMS_COLLECTED are in: the rules stop looking. */
export const ENOUGH = Symbol('enough problems');

export function ruleProblem(
  ctx: RuleCtx,
  path: PathSegment[],
  at: SchemaProblem['at'],
  message: string,
  expected?: string,
): void {
  ctx.out.push(expected ? { path, at, message, expected } : { path, at, message });
  if (ctx.out.length >= MAX_PROBLEMS_COLLECTED) throw ENOUGH;
}

export function checkAssetKeys(ctx: RuleCtx, m: unknown, path: PathSegment[]): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) {
    if (isAsset(k)) continue;
    const units = [...amountUnits().keys()];
    const fix =
      units.find((a) => a.toLowerCase() === k.toLowerCase()) ??
      (/^sal[0-9a-z]{4}$/i.test(k) ? `sal${k.slice(3).toUpperCase()}` : undefined);
    ruleProblem(
      ctx,
      [...path, k],
      'key',
      `"${k}" is not an asset${didYouMean(fix)}`,
      `${units.join(', ')} or a token such as salABCD (lower-case sal + 4 upper-case letters or digits)`,
    );
  }
}

export function checkWalletRef(ctx: RuleCtx, v: unknown, path: PathSegment[]): void {
  if (typeof v !== 'string' || !NAME_RE.test(v) || ctx.wallets.has(v)) return;
  const names = [...ctx.wallets];
  ruleProblem(
    ctx,
    path,
    'value',
    `unknown wallet "${v}"${didYouMean(suggest(v, names))}`,
    `main or a wallet declared under wallets: (${names.join(', ')})`,
  );
}

/** A node name the scenario does not have (nodes: N gives n0 to n<N-1>). */
export function checkNodeRef(ctx: RuleCtx, v: unknown, path: PathSegment[]): void {
  if (typeof v !== 'string' || !NODE_NAME.test(v)) return;
  const why = unknownNode(v, ctx.nodes);
  if (why)
    ruleProblem(
      ctx,
      path,
      'value',
      `${why.replace('this testnet has', 'this scenario has')}${ctx.nodes === 1 ? ' (give the scenario nodes: 2 or more)' : ` (nodes: ${ctx.nodes})`}`,
      ctx.nodes === 1 ? 'n0' : `n0 to n${ctx.nodes - 1}`,
    );
}

export function checkAddressValue(ctx: RuleCtx, v: unknown, path: PathSegment[]): void {
  if (typeof v === 'string' && ctx.wallets.has(v)) {
    ruleProblem(ctx, path, 'value', `"${v}" is a wallet name, not an address; write "\${${v}.address}"`, addressText);
  }
}

export function checkRawKeys(
  ctx: RuleCtx,
  params: Record<string, unknown>,
  method: string,
  known: readonly string[],
  path: PathSegment[],
): void {
  for (const k of Object.keys(params)) {
    if (known.includes(k)) continue;
    const s = suggest(k, known);
    if (s) {
      ruleProblem(
        ctx,
        [...path, k],
        'key',
        `unknown key "${k}" (did you mean "${s}"?); other keys are sent to ${method} as written, but this one looks like a typo — use call: {method: ${method}, params: …} to send it anyway`,
        `one of: ${known.join(', ')}, or a raw ${method} field`,
      );
    }
  }
}

export function checkExpectationKeys(ctx: RuleCtx, m: unknown, path: PathSegment[]): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) {
    if (isTemplateString(k)) continue;
    const p = responsePathProblem(k);
    if (p) ruleProblem(ctx, [...path, k], 'key', p, RESPONSE_PATH_EXPECTED);
  }
}

/** What a step kind's rules know of the rest of the file. */
export interface RuleArgs {
  metadataNames: Set<string>;
  metadataLater: Map<string, number>;
  /** Snapshot names of the steps so far (a snapshot step adds its own). */
  snapshots: Set<string>;
  /** The step's own `wallet:`, if any. */
  stepWallet?: unknown;
}
