// The rules zod does not express well, over the whole document: wallet declarations, one action per
// step (each kind checks its own value: steps/*.ts), saved names, metadata names, and every `${…}`
// placeholder against what is defined before it.
import type { PathSegment } from '../../common/path.js';
import { isPlainObject } from '../../common/plain-object.js';
import { parsePath } from '../../common/path.js';
import { suggest } from '../../common/suggest.js';
import { METADATA_FIELDS, SCOPE_ROOTS, UNIQUE_NAME, WALLET_FIELDS, scanTemplate } from '../interpolate.js';
import { ACTION_KEYS, stepKind } from '../steps/registry.js';
import { checkHeldTickers } from './held-rule.js';
import {
  ENOUGH,
  checkAssetKeys,
  checkExpectationKeys,
  checkNodeRef,
  checkWalletRef,
  ruleProblem,
  type RuleArgs,
  type RuleCtx,
} from './rule-kit.js';
import { NAME_RE, RESERVED_WALLET_NAMES, STEP_COMMON_KEYS, didYouMean, has, listed } from './vocabulary.js';
import type { SchemaProblem } from './problem.js';

/** Every string in a value, with its path (keys too, marked). */
function* strings(v: unknown, path: PathSegment[]): Generator<{ s: string; path: PathSegment[]; at: 'key' | 'value' }> {
  if (typeof v === 'string') yield { s: v, path, at: 'value' };
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], [...path, i]);
  else if (isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k.includes('${')) yield { s: k, path: [...path, k], at: 'key' };
      yield* strings(x, [...path, k]);
    }
  }
}

const PLACEHOLDER_EXPECTED =
  'a saved name, ${<wallet>.address|cn|carrot}, ${wallets.<wallet>.address}, ${metadata.<name>.url|sha256|size}, ${height}, ${env.NAME} or ${env.public.NAME}';

function checkPlaceholder(
  ctx: RuleCtx,
  expr: string,
  where: { path: PathSegment[]; at: 'key' | 'value' },
  stepIndex: number,
  saved: Set<string>,
  metadataNames: Set<string>,
  metadataLater: Map<string, number>,
): void {
  const ph = `\${${expr}}`;
  const bad = (msg: string) => ruleProblem(ctx, where.path, where.at, msg, PLACEHOLDER_EXPECTED);
  let segs: PathSegment[];
  try {
    segs = parsePath(expr);
  } catch (e) {
    return bad(`bad placeholder ${ph}: ${(e as Error).message}`);
  }
  const [root, second, third] = segs;
  if (typeof root !== 'string') return bad(`bad placeholder ${ph}: it must start with a name`);
  const field = (fields: readonly string[], what: string, seg: PathSegment | undefined, n: number) => {
    if (seg === undefined) return bad(`${ph} needs a field: ${fields.map((f) => `.${f}`).join(', ')}`);
    if (typeof seg !== 'string' || !fields.includes(seg))
      return bad(
        `${what} has no ${JSON.stringify(seg)} in ${ph}${didYouMean(typeof seg === 'string' ? suggest(seg, fields) : undefined)}; it has ${fields.join(', ')}`,
      );
    if (segs.length > n) return bad(`${ph}: ${what}.${seg} is a plain value; nothing follows it`);
  };
  if (saved.has(root)) return;
  if (root === 'env') {
    const named = segs.length === 3 && second === 'public' ? third : segs.length === 2 ? second : undefined;
    if (typeof named !== 'string')
      return bad(
        `write \${env.NAME} (or \${env.public.NAME}: not redacted from the artifacts) for the environment variable NAME, not ${ph}`,
      );
    return;
  }
  if (root === 'height') {
    if (segs.length > 1) return bad(`${ph}: height is a number; write \${height}`);
    return;
  }
  if (root === 'unique') {
    if (segs.length !== 2 || typeof second !== 'string' || !UNIQUE_NAME.test(second))
      return bad(`write \${unique.NAME} (e.g. \${unique.ticker}) for a token ticker of this run's own, not ${ph}`);
    return;
  }
  if (root === 'wallets') {
    if (typeof second !== 'string' || !ctx.wallets.has(second))
      return bad(
        `unknown wallet ${JSON.stringify(second)} in ${ph}${didYouMean(typeof second === 'string' ? suggest(second, [...ctx.wallets]) : undefined)}; wallets: ${[...ctx.wallets].join(', ')}`,
      );
    return field(WALLET_FIELDS, `wallet ${second}`, third, 3);
  }
  if (root === 'metadata') {
    if (typeof second !== 'string' || !metadataNames.has(second)) {
      const later = typeof second === 'string' ? metadataLater.get(second) : undefined;
      if (later !== undefined)
        return bad(`${ph}: metadata "${second}" is built by step ${later + 1}, which runs after this one`);
      return bad(
        `no earlier metadata step is named ${JSON.stringify(second)} in ${ph}${didYouMean(typeof second === 'string' ? suggest(second, [...metadataNames]) : undefined)}`,
      );
    }
    return field(METADATA_FIELDS, `metadata ${second}`, third, 3);
  }
  if (ctx.wallets.has(root)) return field(WALLET_FIELDS, `wallet ${root}`, second, 2);
  const later = ctx.savedBy.get(root);
  if (later !== undefined && later >= stepIndex)
    return bad(
      `${ph}: "${root}" is saved by step ${later + 1}, which runs ${later === stepIndex ? 'at the end of this step' : 'after this one'}`,
    );
  const known = [...saved, ...ctx.wallets, ...SCOPE_ROOTS];
  bad(
    `unknown name "${root}" in ${ph}${didYouMean(suggest(root, known))}; defined here: ${saved.size ? `saved ${listed(saved)}; ` : ''}wallets ${[...ctx.wallets].join(', ')}; metadata.<name>; height; env.NAME; unique.NAME`,
  );
}

/**
 * Rules zod does not check: run on the raw document, whatever its structural problems (the first MAX_PROBLEMS_COLLECTED
 * problems).
 */
export function checkRules(doc: unknown): SchemaProblem[] {
  const given = isPlainObject(doc) ? doc.nodes : undefined;
  const nodes = typeof given === 'number' && Number.isInteger(given) && given >= 1 ? given : 1;
  const ctx: RuleCtx = { out: [], wallets: new Set(['main']), savedBy: new Map(), nodes };
  try {
    if (isPlainObject(doc)) collectRuleProblems(ctx, doc);
  } catch (e) {
    if (e !== ENOUGH) throw e;
  }
  return ctx.out;
}

function checkWalletDecls(ctx: RuleCtx, wallets: Record<string, unknown>): void {
  for (const [name, decl] of Object.entries(wallets)) {
    if (name === 'main')
      ruleProblem(
        ctx,
        ['wallets', name],
        'key',
        '"main" is the built-in wallet (it runs steps by default); give extra wallets other names',
        'a wallet name other than main',
      );
    else if (RESERVED_WALLET_NAMES.includes(name))
      ruleProblem(
        ctx,
        ['wallets', name],
        'key',
        `"${name}" is reserved for \${${name}…} placeholders; pick another wallet name`,
        `a name other than ${RESERVED_WALLET_NAMES.join(', ')}`,
      );
    else if (!NAME_RE.test(name))
      ruleProblem(
        ctx,
        ['wallets', name],
        'key',
        `"${name}" is not a valid wallet name`,
        'letters, digits and _, not starting with a digit',
      );
    else ctx.wallets.add(name);
    if (isPlainObject(decl)) checkAssetKeys(ctx, decl.unlocked, ['wallets', name, 'unlocked']);
    if (isPlainObject(decl)) checkNodeRef(ctx, decl.node, ['wallets', name, 'node']);
  }
}

/** What the steps define, as the rules walk them in order. */
interface Defined {
  saved: Set<string>;
  metadataNames: Set<string>;
  snapshots: Set<string>;
  /** metadata name → index of the step that builds it */
  metadataLater: Map<string, number>;
}

function collectRuleProblems(ctx: RuleCtx, doc: Record<string, unknown>): void {
  if (isPlainObject(doc.wallets)) checkWalletDecls(ctx, doc.wallets);
  if (isPlainObject(doc.requires)) checkAssetKeys(ctx, doc.requires.unlocked, ['requires', 'unlocked']);
  checkHeldTickers(ctx, doc);
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  // Who saves what and who builds which metadata, for "defined later" messages.
  const defined: Defined = {
    saved: new Set(),
    metadataNames: new Set(),
    snapshots: new Set(),
    metadataLater: new Map(),
  };
  steps.forEach((st, i) => {
    if (!isPlainObject(st)) return;
    if (isPlainObject(st.save)) for (const k of Object.keys(st.save)) if (!ctx.savedBy.has(k)) ctx.savedBy.set(k, i);
    if (
      isPlainObject(st.metadata) &&
      typeof st.metadata.name === 'string' &&
      !defined.metadataLater.has(st.metadata.name)
    )
      defined.metadataLater.set(st.metadata.name, i);
  });
  steps.forEach((st, i) => {
    if (isPlainObject(st)) checkStep(ctx, st, i, defined);
  });
}

function checkActions(ctx: RuleCtx, st: Record<string, unknown>, path: PathSegment[], args: RuleArgs): void {
  const keys = Object.keys(st);
  const actions = keys.filter((k) => (ACTION_KEYS as readonly string[]).includes(k));
  const allowed = [...ACTION_KEYS, ...STEP_COMMON_KEYS] as readonly string[];
  const unknown = keys.filter((k) => !allowed.includes(k));
  if (actions.length === 0 && !unknown.some((k) => suggest(k, ACTION_KEYS))) {
    ruleProblem(ctx, path, 'value', 'the step has no action', `exactly one of: ${ACTION_KEYS.join(', ')}`);
  }
  for (const extra of actions.slice(1)) {
    ruleProblem(
      ctx,
      [...path, extra],
      'key',
      `a step has exactly one action; this one already has ${actions[0]} (split it into two steps)`,
      `exactly one of: ${ACTION_KEYS.join(', ')}`,
    );
  }
  for (const a of actions) stepKind(a)!.check?.(ctx, st[a], [...path, a], args);
  const kind = actions[0] ? stepKind(actions[0]) : undefined;
  if (has(st, 'expect_error') && kind && !kind.answersRpc) {
    ruleProblem(
      ctx,
      [...path, 'expect_error'],
      'key',
      `a ${kind.key} step answers no RPC error to expect${kind.key === 'wait' ? ' (a wait ends when its until holds; an error answer keeps it waiting)' : ''}`,
      'expect_error only on call or a wallet method',
    );
  }
}

function checkPlaceholders(
  ctx: RuleCtx,
  st: Record<string, unknown>,
  i: number,
  d: Defined,
  metadataLater: Map<string, number>,
): void {
  // Placeholders: everything but the save paths.
  for (const k of Object.keys(st)) {
    if (k === 'save') continue;
    for (const str of strings(st[k], ['steps', i, k])) {
      let parts;
      try {
        parts = scanTemplate(str.s);
      } catch (e) {
        ruleProblem(ctx, str.path, str.at, (e as Error).message, PLACEHOLDER_EXPECTED);
        continue;
      }
      for (const p of parts)
        if ('expr' in p) checkPlaceholder(ctx, p.expr, str, i, d.saved, d.metadataNames, metadataLater);
    }
  }
}

function checkSaves(ctx: RuleCtx, save: Record<string, unknown>, path: PathSegment[], saved: Set<string>): void {
  for (const name of Object.keys(save)) {
    const sp = [...path, 'save', name];
    if (!NAME_RE.test(name))
      ruleProblem(
        ctx,
        sp,
        'key',
        `"${name}" is not a valid name to save under`,
        'letters, digits and _, not starting with a digit',
      );
    else if ((SCOPE_ROOTS as readonly string[]).includes(name) || name === 'main')
      ruleProblem(
        ctx,
        sp,
        'key',
        `"${name}" is reserved for placeholders; save under another name`,
        `a name other than ${[...SCOPE_ROOTS, 'main'].join(', ')}`,
      );
    else if (ctx.wallets.has(name))
      ruleProblem(ctx, sp, 'key', `"${name}" is a wallet name; save under another name`, 'a name that is not a wallet');
    saved.add(name);
  }
}

function checkStep(ctx: RuleCtx, st: Record<string, unknown>, i: number, d: Defined): void {
  const path: PathSegment[] = ['steps', i];
  const metadataLater = new Map([...d.metadataLater].filter(([, j]) => j >= i));
  checkActions(ctx, st, path, {
    metadataNames: d.metadataNames,
    metadataLater,
    snapshots: d.snapshots,
    stepWallet: st.wallet,
  });
  if (has(st, 'wallet')) checkWalletRef(ctx, st.wallet, [...path, 'wallet']);
  if (has(st, 'node')) checkStepNode(ctx, st, path);
  checkExpectationKeys(ctx, st.expect, [...path, 'expect']);
  checkPlaceholders(ctx, st, i, d, metadataLater);
  if (isPlainObject(st.save)) checkSaves(ctx, st.save, path, d.saved);
  if (isPlainObject(st.metadata) && typeof st.metadata.name === 'string') {
    if (d.metadataNames.has(st.metadata.name))
      ruleProblem(
        ctx,
        [...path, 'metadata', 'name'],
        'value',
        `metadata "${st.metadata.name}" is already built by an earlier step`,
        'a new metadata name',
      );
    d.metadataNames.add(st.metadata.name);
  }
}

/** A daemon call: `call` on the daemon (or a path), or a `wait` repeating one. */
const daemonCall = (c: unknown): boolean => isPlainObject(c) && (c.on === 'daemon' || has(c, 'path'));

/** Whether a step talks to a daemon, so that its `node:` says which. */
function usesNode(st: Record<string, unknown>): boolean {
  if (has(st, 'call')) return daemonCall(st.call);
  if (has(st, 'wait')) return isPlainObject(st.wait) && daemonCall(st.wait.call);
  if (has(st, 'restart')) return st.restart === 'daemon';
  if (has(st, 'log')) return isPlainObject(st.log) && st.log.program === 'daemon';
  return false;
}

/** A step's `node:`: a node the scenario has, on a step that talks to a daemon. */
function checkStepNode(ctx: RuleCtx, st: Record<string, unknown>, path: PathSegment[]): void {
  checkNodeRef(ctx, st.node, [...path, 'node']);
  if (usesNode(st)) return;
  const kind = Object.keys(st).find((k) => (ACTION_KEYS as readonly string[]).includes(k));
  const hint =
    kind === 'mine'
      ? '; to mine on a node write mine: {blocks: 1, node: n1}'
      : kind === 'partition' || kind === 'heal' || kind === 'sync'
        ? ''
        : '; a wallet talks to the node it is declared on (wallets: {bob: {node: n1}})';
  ruleProblem(
    ctx,
    [...path, 'node'],
    'key',
    `node: says which daemon answers a step that talks to one${kind ? `, and a ${kind} step does not` : ''}${hint}`,
    'node: on call (on the daemon), wait (on a daemon call), restart: daemon or log (program: daemon)',
  );
}
