// Examples quoted in the reference: steps of the example scenarios, else the step kind's own.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import { parseScenario } from '../../harness/scenario/parse.js';
import { stepKind } from '../../harness/scenario/steps/registry.js';

export interface ExampleFile {
  name: string;
  text: string;
  /** Each step: its action, whether it checks something, its source text (dedented, as a list item). */
  steps: { action: string; checks: boolean; text: string }[];
}

export function readExamples(dir: string, actionKeys: readonly string[]): ExampleFile[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  return files.map((name) => {
    const src = readFileSync(join(dir, name), 'utf8');
    // Quoting a file that does not validate would teach a mistake: refuse (this throws with every problem).
    parseScenario(src, join(dir, name));
    const doc = parseDocument(src);
    const seq = doc.get('steps', true);
    const steps: ExampleFile['steps'] = [];
    if (isSeq(seq)) {
      for (const item of seq.items) {
        if (!isMap(item) || !item.range) continue;
        const keys = item.items.map((p) => String((p.key as { value?: unknown } | null)?.value ?? p.key));
        const action = keys.find((k) => actionKeys.includes(k));
        if (!action) continue;
        const lineStart = src.lastIndexOf('\n', item.range[0] - 1) + 1;
        const lines = src.slice(lineStart, item.range[1]).replace(/\s+$/, '').split('\n');
        const indent = /^\s*/.exec(lines[0]!)![0].length;
        steps.push({
          action,
          checks: keys.includes('expect') || keys.includes('expect_error'),
          text: lines.map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length))).join('\n'),
        });
      }
    }
    return { name, text: src, steps };
  });
}

/** The example for a step kind: a step that checks something (expect before expect_error), the shortest such. */
export function pickExample(files: ExampleFile[], action: string): { file: string; text: string } | undefined {
  const all = files.flatMap((f) => f.steps.filter((s) => s.action === action).map((s) => ({ file: f.name, ...s })));
  if (!all.length) return undefined;
  const score = (s: (typeof all)[number]): number => (s.checks ? (/\bexpect:/.test(s.text) ? 0 : 1) : 2);
  const best = [...all].sort(
    (a, b) => score(a) - score(b) || a.text.split('\n').length - b.text.split('\n').length,
  )[0]!;
  return { file: best.file, text: best.text };
}

/**
 * The example for a step kind no example scenario uses yet (its module's docs.example), validated as
 * the steps of a scenario with the given wallets, so a wrong one fails the generator instead of misleading.
 */
export function fallbackExample(action: string): string | undefined {
  const ex = stepKind(action)?.docs.example;
  if (!ex) return undefined;
  const wallets = ex.wallets?.length ? `wallets:\n${ex.wallets.map((w) => `  ${w}: {}`).join('\n')}\n` : '';
  const doc = `name: example\n${wallets}steps:\n${ex.steps
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
  parseScenario(doc, `docs example for ${action}`);
  return ex.steps;
}
