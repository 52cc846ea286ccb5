// log: a line in a program's log — the scenario form of Bitcoin's assert_debug_log. By default it
// looks at what the previous step caused (the lines written since that step started), waiting a few
// seconds for the line to appear; `absent: true` asserts that no such line appears.
import { isPlainObject } from '../../common/plain-object.js';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { MAX_WAIT_SECONDS } from '../bounds.js';
import { regexProblem, regexTest } from '../regex.js';
import { ruleProblem } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import { fail, walletOf, type StepContext } from './context.js';
import type { StepCommon } from '../types.js';
import { defineStep } from './kind.js';
import { counted } from '../../common/describe.js';

export interface LogAction {
  kind: 'log';
  program: 'daemon' | 'wallet';
  contains?: string;
  matches?: string;
  since: 'previous_step' | 'scenario';
  within: number;
  absent: boolean;
}

const schema = z
  .strictObject({
    program: z
      .enum(['daemon', 'wallet'])
      .describe("whose log: daemon, or wallet (the wallet RPC of the step's wallet)"),
    contains: z.string().min(1).describe('text the line holds').optional(),
    matches: z.string().min(1).describe('a regular expression (RE2) the line matches').optional(),
    since: z
      .enum(['previous_step', 'scenario'])
      .describe('lines written since the previous step started (default) or since the first step did')
      .optional(),
    within: z.number().positive().max(MAX_WAIT_SECONDS).describe('seconds to wait for the line (default 5)').optional(),
    absent: z.boolean().describe('assert that no such line is written within those seconds (default false)').optional(),
  })
  .describe(
    "a line in a program's log: {program: daemon|wallet, contains: text | matches: regex, since?, within?, absent?}",
  )
  .meta({ oneOf: [{ required: ['contains'] }, { required: ['matches'] }] });

const ANSI = /\x1b\[[0-9;]*m/g;
/** `2026-11-21 05:14:31.426<TAB>I …`: the UTC time the programs (real and simulated) put first on each console line. */
const STAMP = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\t/;

/** The log's lines written at or after `since` (ms): a line without a time of its own goes with the line before it. */
function linesSince(file: string, since: number): string[] {
  if (!existsSync(file)) return [];
  let keep = false;
  const out: string[] = [];
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(ANSI, '');
    const stamp = STAMP.exec(line);
    if (stamp) keep = Date.parse(`${stamp[1]!.replace(' ', 'T')}Z`) >= since;
    if (keep && line.trim() !== '') out.push(line);
  }
  return out;
}

function logFile(ctx: StepContext, a: LogAction, step: StepCommon): string {
  if (a.program === 'wallet') return walletOf(ctx, step.wallet).handle.logFile;
  const node = ctx.testnet.nodes.find((n) => n.name === (step.node ?? 'n0'));
  if (!node)
    return fail(`no node named "${step.node}": this testnet has ${ctx.testnet.nodes.map((n) => n.name).join(', ')}`);
  return node.logFile;
}

const describe = (a: LogAction): string =>
  a.contains !== undefined ? `containing ${JSON.stringify(a.contains)}` : `matching /${a.matches}/`;

export const logStep = defineStep<'log', LogAction>({
  key: 'log',
  schema,
  answersRpc: false,
  build(v) {
    const o = v as Record<string, unknown>;
    const a: LogAction = {
      kind: 'log',
      program: o.program as LogAction['program'],
      since: (o.since as LogAction['since']) ?? 'previous_step',
      within: (o.within as number) ?? 5,
      absent: o.absent === true,
    };
    if (typeof o.contains === 'string') a.contains = o.contains;
    if (typeof o.matches === 'string') a.matches = o.matches;
    return a;
  },
  defaultName: (a) => `log ${a.program}${a.absent ? ' has no line' : ''} ${describe(a)}`,
  check(ctx, v, path) {
    if (!isPlainObject(v)) return;
    if (has(v, 'contains') && has(v, 'matches'))
      ruleProblem(
        ctx,
        [...path, 'matches'],
        'key',
        'give either contains or matches, not both',
        '{program, contains} or {program, matches}',
      );
    else if (!has(v, 'contains') && !has(v, 'matches'))
      ruleProblem(
        ctx,
        [...path, 'contains'],
        'parent',
        'missing what to look for: contains (text) or matches (a regular expression)',
        '{program, contains} or {program, matches}',
      );
    const bad = typeof v.matches === 'string' ? regexProblem(v.matches) : undefined;
    if (bad)
      ruleProblem(
        ctx,
        [...path, 'matches'],
        'value',
        `bad regular expression: ${bad}`,
        'a regular expression (RE2 syntax)',
      );
  },
  async run(ctx, step, a) {
    const file = logFile(ctx, a, step);
    const since = a.since === 'scenario' ? (ctx.scenarioStartedAt ?? 0) : (ctx.previousStepStartedAt ?? 0);
    const hit = (line: string): boolean => {
      if (a.contains !== undefined) return line.includes(a.contains);
      const r = regexTest(a.matches!, line);
      return 'matched' in r && r.matched;
    };
    const deadline = Date.now() + a.within * 1000;
    let lines: string[];
    for (;;) {
      lines = linesSince(file, since);
      const found = lines.find(hit);
      if (found !== undefined && !a.absent)
        return { request: { log: a.program, file }, response: { result: { line: found } } };
      if (found !== undefined) fail(`log: the ${a.program} wrote a line ${describe(a)}: ${found} (in ${file})`);
      if (Date.now() >= deadline) break;
      await sleep(100);
    }
    if (a.absent) return { request: { log: a.program, file }, response: { result: {} } };
    const tail = lines
      .slice(-5)
      .map((l) => `  ${l}`)
      .join('\n');
    return fail(
      `log: no line ${describe(a)} in the ${a.program}'s log ${file} within ${a.within} s (${counted(lines.length, 'line')} since ${a.since === 'scenario' ? 'the scenario' : 'the previous step'} started${tail ? `; the last:\n${tail}` : ''})`,
    );
  },
  docs: {
    note: "Looks for a line in the console log of the daemon or of the step's wallet RPC, as Bitcoin's `assert_debug_log` does: by default among the lines written since the previous step started (what that step caused), with `since: scenario` among all lines since the first step. Waits up to `within` seconds (default 5) for the line; with `absent: true` the step fails if such a line is written. Colour codes are removed before matching. The real programs print little at their default log level: a mined block (`Found block <hash> at height N for difficulty: D`), a transaction submitted offline (`Unable to send transaction(s) via Dandelion++ stem`), the startup lines after a `restart`. The answer is `{result: {line}}`, the line found.",
    example: {
      steps: [
        '- mine: 1',
        '- name: the daemon logged the block it found',
        '  log: { program: daemon, matches: "Found block <[0-9a-f]{64}> at height [0-9]+" }',
      ].join('\n'),
    },
  },
});
