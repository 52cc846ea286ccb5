// Human output for a terminal or a CI log: a line per step as it finishes, the details of a
// failure, and a closing `N passed, N failed` line.
import type { ScenarioResult, StepFailure, StepResult } from '../types.js';
import { failureLines, formatPos, seconds, stripAnsi } from './text.js';
import { summarize } from './json.js';

export interface HumanReporter {
  scenarioStart(s: { file: string; name: string }): void;
  step(r: StepResult): void;
  scenarioEnd(r: ScenarioResult): void;
  summary(all: ScenarioResult[]): void;
}

export interface HumanReporterOptions {
  /** ANSI colours; when false the output holds no escape sequence at all. */
  color: boolean;
}

const SGR = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
type Style = keyof typeof SGR;

// Keeps tab and newline; other C0 controls and DEL from logs and messages would move the cursor
// or ring the bell.
const CONTROL = /[\x00-\x08\x0B-\x1F\x7F]/g;

/**
 * A reporter writing to `out`:
 *
 *     scenarios/tokens.yaml — token listed one block after creation
 *       ✓ create_token ABCD  (1.25 s)
 *       ✗ get_tokens  (0.02 s)
 *           expected the token to be listed
 *           at scenarios/tokens.yaml:12:7
 *           path: result.tokens
 *           expected: ["salABCD"]
 *           actual: []
 *       - mine  (skipped)
 *     ✗ failed in 1.31 s
 *       last lines of the logs:
 *         daemon:
 *           | …
 *       artifacts: /tmp/…
 *
 *     1 passed, 1 failed
 *     total time 15.02 s
 *
 * Text from logs and messages is stripped of terminal control sequences.
 */
export function createHumanReporter(out: { write(s: string): void }, opts: HumanReporterOptions): HumanReporter {
  const paint = (style: Style, s: string): string => (opts.color ? `\x1b[${SGR[style]}m${s}\x1b[0m` : s);
  const clean = (s: string): string => stripAnsi(s).replace(CONTROL, (c) => (c === '\r' ? '' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  const line = (s = ''): void => out.write(`${s}\n`);
  const time = (ms: number): string => paint('dim', `(${seconds(ms, 2)} s)`);

  // Whether the current scenario's failure has already been shown under its step.
  let failureShown = false;

  const showFailure = (f: StepFailure, indent: string): void => {
    const lines = failureLines({ ...f, message: f.message || 'failed' }).map(clean);
    const [first = '', ...rest] = lines;
    line(indent + paint('red', first));
    for (const l of rest) line(indent + l);
  };

  const stepLine = (r: StepResult): void => {
    const name = clean(r.name || `step ${r.index + 1}`);
    if (r.status === 'passed') line(`  ${paint('green', '✓')} ${name}  ${time(r.ms)}`);
    else if (r.status === 'failed') line(`  ${paint('red', '✗')} ${paint('bold', name)}  ${time(r.ms)}`);
    else line(`  ${paint('yellow', '-')} ${paint('dim', name)}  ${paint('dim', '(skipped)')}`);
  };

  return {
    scenarioStart(s) {
      failureShown = false;
      line(`${paint('cyan', clean(s.file))} — ${paint('bold', clean(s.name))}`);
    },

    step(r) {
      stepLine(r);
      if (r.status === 'failed') {
        showFailure(r.failure ?? { message: 'step failed' }, '      ');
        failureShown = true;
      }
    },

    scenarioEnd(r) {
      if (r.status === 'passed') {
        line(`${paint('green', '✓ passed')} in ${seconds(r.ms, 2)} s`);
      } else if (r.status === 'skipped') {
        line(`${paint('yellow', '- skipped')}${r.failure ? `: ${clean(r.failure.message)}` : ''}`);
      } else {
        const failed = r.steps.find((s) => s.status === 'failed');
        const where = failed ? ` at step ${failed.index + 1} (${clean(failed.name)})` : r.steps.some((s) => s.status !== 'skipped') ? '' : ' before the first step';
        line(`${paint('red', '✗ failed')}${where} in ${seconds(r.ms, 2)} s`);
        if (!failureShown) {
          const f = failed?.failure ?? r.failure;
          if (f) showFailure(f, '    ');
        }
        const tails = Object.entries(r.logTails ?? {});
        if (tails.length) {
          line('  last lines of the logs:');
          for (const [name, lines] of tails) {
            line(`    ${paint('bold', clean(name))}:${lines.length ? '' : ' (empty)'}`);
            for (const l of lines) line(paint('dim', `      | ${clean(l)}`));
          }
        }
      }
      if (r.artifactDir && r.status !== 'passed') line(`  artifacts: ${clean(r.artifactDir)}`);
      line();
      failureShown = false;
    },

    summary(all) {
      const s = summarize(all);
      const failed = all.filter((r) => r.status === 'failed');
      if (failed.length) {
        line(paint('red', 'failed:'));
        for (const r of failed) {
          const f = r.steps.find((x) => x.status === 'failed')?.failure ?? r.failure;
          const at = f?.pos ? formatPos(f.pos) : r.file;
          line(`  ${clean(at)} — ${clean(r.name)}${f ? `: ${clean(f.message.split('\n', 1)[0] ?? '')}` : ''}`);
        }
        line();
      }
      // Exactly `N passed, N failed[, N skipped]`, alone and uncoloured: CI reads this line.
      line(`${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`);
      line(`total time ${seconds(s.ms, 2)} s`);
    },
  };
}
