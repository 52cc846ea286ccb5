// A recording as a scenario file: `requires` and `wallets` from what the session started from, one
// step per request (readable form or `call`), `mine` steps where blocks were mined, `expect` /
// `expect_error` from the answers, saves and placeholders between steps; commented with when and on
// what it was recorded. The text is checked by the scenario parser before it is handed out.
import { fundingAsset } from '../coin/backends.js';
import { dirname, join, relative } from 'node:path';
import { Document, isMap, isSeq, visit } from 'yaml';
import { formatAmountShort } from '../coin/amounts.js';
import { packageRoot } from '../common/paths.js';
import { parseScenario } from '../scenario/parse.js';
import { ScenarioError } from '../scenario/types.js';
import { expectationsOf, expectedError } from './expect.js';
import { draftAction } from './forms.js';
import { createLinker } from './links.js';
import { EPISODE_METHODS, EPISODE_PATHS } from './mining.js';
import type { RecordedCall, RecordedEvent, SessionRecording } from './types.js';
import { counted } from '../common/describe.js';

export interface ToScenarioOptions {
  /** Where the file will be (its `$schema` comment is relative to it; messages name it). */
  file: string;
  /** The scenario's name (default: `recorded session <time>`). */
  name?: string;
}

interface StepDraft {
  step: Record<string, unknown>;
  comments: string[];
}

/**
 * What main must hold when its history is unknown (a `--run` session): what it spent, with the token cost and a fee
 * margin per spend.
 */
function spentByMain(rec: SessionRecording): bigint {
  const coin = fundingAsset(rec.spec);
  let total = 0n;
  for (const e of rec.events) {
    if (e.kind !== 'call' || e.on !== 'wallet' || e.wallet !== 'main' || e.answer.error) continue;
    const p = (e.params ?? {}) as { destinations?: { amount?: unknown; asset_type?: string }[] };
    for (const d of p.destinations ?? [])
      if ((d.asset_type ?? coin) === coin && d.amount !== undefined) total += BigInt(d.amount as number);
    if (e.method === 'create_token') total += rec.spec.tokenCost ?? 0n;
    if (/^(transfer|sweep|create_token)/.test(e.method ?? '')) total += rec.spec.feeMargin;
  }
  return total > rec.spec.defaultUnlocked ? total : rec.spec.defaultUnlocked;
}

function header(rec: SessionRecording, o: ToScenarioOptions): Record<string, unknown> {
  const calls = rec.events.filter((e) => e.kind === 'call').length;
  const main = rec.wallets.find((w) => w.name === 'main')!;
  const coin = fundingAsset(rec.spec);
  const mainFunds = main.history === 'fresh' ? main.funded : { [coin]: spentByMain(rec) };
  const unlocked = Object.fromEntries(
    Object.entries(mainFunds)
      .filter(([, v]) => v > 0n)
      .map(([a, v]) => [a, formatAmountShort(v, a)]),
  );
  const wallets = Object.fromEntries(
    rec.wallets
      .filter((w) => w.name !== 'main')
      .map((w) => {
        const funds = Object.entries(w.funded).filter(([, v]) => v > 0n);
        return [
          w.name,
          funds.length ? { unlocked: Object.fromEntries(funds.map(([a, v]) => [a, formatAmountShort(v, a)])) } : {},
        ];
      }),
  );
  return {
    name: o.name ?? `recorded session ${rec.startedAt.replace('T', ' ').slice(0, 19)}`,
    description: `Recorded by saltnet record on the ${rec.spec.name} backend: ${counted(calls, 'request')} as ${calls === 1 ? 'it was' : 'they were'} sent, and what came back.`,
    tags: ['recorded'],
    requires: { height: rec.height, ...(Object.keys(unlocked).length ? { unlocked } : {}) },
    ...(Object.keys(wallets).length ? { wallets } : {}),
  };
}

function callStep(
  c: RecordedCall,
  index: number,
  rec: SessionRecording,
  linker: ReturnType<typeof createLinker>,
  readable: boolean,
): Record<string, unknown> {
  const action = draftAction(c, rec.spec, readable);
  const wallet = c.on === 'wallet' ? rec.wallets.find((w) => w.name === c.wallet) : undefined;
  const ctx = {
    on: c.on,
    ...(c.method ? { method: c.method } : {}),
    knownHistory: wallet?.history === 'fresh',
    link: linker.link,
    ...(rec.localPaths ? { localPaths: rec.localPaths } : {}),
  };
  const step: Record<string, unknown> = {
    ...(c.on === 'wallet' && c.wallet !== 'main' ? { wallet: c.wallet } : {}),
    [action.key]: linker.request(action.value),
  };
  if (c.answer.error) step.expect_error = expectedError(c.answer.error, ctx);
  else {
    step.expect = expectationsOf(c.answer.result, ctx);
    linker.produced(index, c.answer.result, c.method ?? c.path);
  }
  return step;
}

/** A daemon read right before mining (the height a mining loop starts from): part of the mining, not a step. */
const isMiningRead = (e: RecordedEvent, next: RecordedEvent | undefined): boolean =>
  next?.kind === 'mine' &&
  e.kind === 'call' &&
  e.on === 'daemon' &&
  !e.answer.error &&
  (EPISODE_PATHS.has(e.path ?? '') || EPISODE_METHODS.has(e.method ?? ''));

function drafts(rec: SessionRecording, callOnly: ReadonlySet<number>): StepDraft[] {
  const linker = createLinker(rec.spec, rec.wallets, rec.height);
  const out: StepDraft[] = [];
  let comments: string[] = [];
  const events = rec.events.filter((e, i) => !isMiningRead(e, rec.events[i + 1]));
  for (const e of events) {
    if (e.kind === 'skipped') {
      comments.push(` not replayed: ${e.why}`);
      continue;
    }
    const last = out.at(-1);
    if (e.kind === 'mine') {
      const note = e.overshoot
        ? [
            ` mining: ${counted(e.blocks, 'block')} the app waited for (the height its last poll saw); the daemon mined ${e.overshoot} more before mining stopped, ${e.popped ? 'which saltnet popped before the app went on, as a replay never mines them' : 'which a replay does not'}`,
          ]
        : [];
      if (last && comments.length === 0 && typeof last.step.mine === 'number') {
        last.step.mine += e.blocks;
        last.comments.push(...note);
      } else out.push({ step: { mine: e.blocks }, comments: [...comments, ...note] });
    } else out.push({ step: callStep(e, out.length, rec, linker, !callOnly.has(out.length)), comments });
    comments = [];
  }
  for (const [i, saves] of linker.saves()) out[i]!.step.save = saves;
  if (comments.length && out.length) out.at(-1)!.comments.push(...comments);
  return out;
}

function render(rec: SessionRecording, o: ToScenarioOptions, steps: StepDraft[]): string {
  const doc = new Document({ ...header(rec, o), steps: steps.map((s) => s.step) });
  const schema = relative(dirname(o.file), join(packageRoot(), 'scenarios', 'scenario.schema.json'));
  doc.commentBefore = [
    ` yaml-language-server: $schema=${schema}`,
    ` Recorded by \`saltnet record\` on ${rec.startedAt}, ${rec.spec.name} backend${rec.version ? ` (${rec.version})` : ''}, from height ${rec.height}.`,
    ` Replay it: saltnet run ${relative(process.cwd(), o.file) || o.file}`,
  ].join('\n');
  const seq = doc.get('steps', true);
  if (isSeq(seq))
    seq.items.forEach((node, i) =>
      steps[i]!.comments.length
        ? ((node as { commentBefore?: string }).commentBefore = steps[i]!.comments.join('\n'))
        : undefined,
    );
  // Small mappings (a request, a matcher) on one line, as people write them.
  visit(doc, {
    Map(_k, node, path) {
      if (path.length > 4 && node.items.length <= 4 && node.items.every((p) => !isMap(p.value) && !isSeq(p.value)))
        node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** Which steps a scenario problem is about (`steps[3].transfer.to` → 3). */
const stepsOf = (err: ScenarioError): number[] =>
  err.problems
    .map((p) => /^steps\[(\d+)\]/.exec(p.path)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number);

/**
 * The scenario file of a recording. A step whose readable form the parser refuses (a request the
 * app sent with a field the form would call misspelt, say) is written as `call` instead.
 */
export function recordingToScenario(rec: SessionRecording, o: ToScenarioOptions): { text: string; steps: number } {
  const callOnly = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    const steps = drafts(rec, callOnly);
    if (steps.length === 0)
      throw new Error('nothing was recorded: no request reached the proxies and no block was mined');
    const text = render(rec, o, steps);
    try {
      parseScenario(text, o.file);
      return { text, steps: steps.length };
    } catch (err) {
      const bad = err instanceof ScenarioError ? stepsOf(err).filter((i) => !callOnly.has(i)) : [];
      if (attempt > 0 || bad.length === 0)
        throw new Error(
          `saltnet record wrote a scenario its own parser refuses (please report this):\n${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      for (const i of bad) callOnly.add(i);
    }
  }
}
