// Human output for a terminal or a CI log: a line per step as it finishes, the details of a
// failure (or of an infrastructure error, labelled as such), and a closing `N passed, N failed` line.
import type { ScenarioResult, StepFailure, StepResult } from '../types.js';
import { failureLines, formatPos, seconds, stripAnsi } from './text.js';
import { summarizeResults } from './json.js';

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
 * A scenario the infrastructure let down (status `error`: the testnet did not start, funding
 * failed, a process died) ends with `✗ ERROR (infrastructure)` instead of `✗ failed`, is listed
 * under `errors (infrastructure, not the scenario):`, and counted apart: `1 passed, 1 failed, 1 error`.
 *
 * Text from logs and messages is stripped of terminal control sequences.
 */
export function createHumanReporter(out: { write(s: string): void }, opts: HumanReporterOptions): HumanReporter {
  const paint = (style: Style, s: string): string => (opts.color ? `\x1b[${SGR[style]}m${s}\x1b[0m` : s);
  const clean = (s: string): string =>
    stripAnsi(s).replace(CONTROL, (c) => (c === '\r' ? '' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
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
    const note = r.note ? `  ${paint('dim', clean(r.note))}` : '';
    if (r.status === 'passed') line(`  ${paint('green', '✓')} ${name}  ${time(r.ms)}${note}`);
    else if (r.status === 'failed') line(`  ${paint('red', '✗')} ${paint('bold', name)}  ${time(r.ms)}`);
    else if (r.status === 'interrupted')
      line(
        `  ${paint('yellow', '✗')} ${paint('bold', name)}  ${paint('yellow', `(${clean(r.failure?.message ?? 'interrupted')})`)}`,
      );
    else line(`  ${paint('yellow', '-')} ${paint('dim', name)}  ${paint('dim', '(skipped)')}`);
  };

  return {
    scenarioStart(s) {
      failureShown = false;
      // A file that does not parse has no name of its own: its path is all there is to show.
      line(
        s.name && s.name !== s.file
          ? `${paint('cyan', clean(s.file))} — ${paint('bold', clean(s.name))}`
          : paint('cyan', clean(s.file)),
      );
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
        const failed = r.steps.find((s) => s.status === 'failed' || s.status === 'interrupted');
        line(`${paint('red', endLabel(r, clean))}${whereItStopped(r, failed, clean)} in ${seconds(r.ms, 2)} s`);
        const f = failed?.failure ?? r.failure;
        // An error's own message says what broke; the step's details were shown under the step.
        if (r.status === 'error' && r.failure)
          showFailure(failureShown ? { message: r.failure.message } : r.failure, '    ');
        else if (!failureShown && f && r.status !== 'interrupted') showFailure(f, '    ');
        writeLogTails(r, { line, paint, clean });
      }
      if (r.artifactDir && r.status !== 'passed') line(`  artifacts: ${clean(r.artifactDir)}`);
      line();
      failureShown = false;
    },

    summary(all) {
      writeSummary(all, { line, paint, clean });
    },
  };
}

/** Problems of one scenario listed in the summary; the rest are above, under the scenario. */
const SUMMARY_PROBLEMS = 5;

interface Writer {
  line(s?: string): void;
  paint(style: Style, s: string): string;
  clean(s: string): string;
}

/** How an unsuccessful scenario ended: `✗ failed`, `✗ ERROR (infrastructure)` or why it was interrupted. */
function endLabel(r: ScenarioResult, clean: (s: string) => string): string {
  if (r.status === 'error') return '✗ ERROR (infrastructure)';
  if (r.status === 'interrupted') return `✗ ${clean(r.failure?.message ?? 'interrupted')}`;
  return '✗ failed';
}

/** ` at step N (name)` for the step that failed or was interrupted, ` before the first step` when none ran. */
function whereItStopped(r: ScenarioResult, failed: StepResult | undefined, clean: (s: string) => string): string {
  // Its place in the list when a result read back (a result.json edited by hand, say) lost the index.
  if (failed)
    return ` at step ${Number.isInteger(failed.index) ? failed.index + 1 : r.steps.indexOf(failed) + 1} (${clean(failed.name)})`;
  return r.steps.some((s) => s.status !== 'skipped') ? '' : ' before the first step';
}

/** The last lines of each program's log, when the result carries them. */
function writeLogTails(r: ScenarioResult, { line, paint, clean }: Writer): void {
  const tails = Object.entries(r.logTails ?? {});
  if (!tails.length) return;
  line('  last lines of the logs:');
  for (const [name, lines] of tails) {
    line(`    ${paint('bold', clean(name))}:${lines.length ? '' : ' (empty)'}`);
    for (const l of lines) line(paint('dim', `      | ${clean(l)}`));
  }
}

/** The failed and errored scenarios, each with its first message line, then the counts and the total time. */
function writeSummary(all: ScenarioResult[], { line, paint, clean }: Writer): void {
  const s = summarizeResults(all);
  const list = (title: string, status: 'failed' | 'error' | 'interrupted'): void => {
    const them = all.filter((r) => r.status === status);
    if (!them.length) return;
    line(paint('red', title));
    for (const r of them) {
      const f = r.status === 'failed' ? (r.steps.find((x) => x.status === 'failed')?.failure ?? r.failure) : r.failure;
      const at = f?.pos ? formatPos(f.pos) : r.file;
      const head = r.name && r.name !== r.file ? `${at} — ${r.name}` : at;
      // Each problem once, without the path the head already gives (a file's problems start with it).
      const problems = (f?.message ?? '')
        .split('\n')
        .map((l) => (l.startsWith(`${r.file}:`) ? l.slice(r.file.length + 1) : l))
        .filter((l) => l.trim());
      if (problems.length <= 1) line(`  ${clean(head)}${problems[0] ? `: ${clean(problems[0])}` : ''}`);
      else {
        line(`  ${clean(head)}:`);
        for (const p of problems.slice(0, SUMMARY_PROBLEMS)) line(`    ${clean(p)}`);
        if (problems.length > SUMMARY_PROBLEMS) line(`    … and ${problems.length - SUMMARY_PROBLEMS} more (above)`);
      }
    }
    line();
  };
  list('failed:', 'failed');
  list('errors (infrastructure, not the scenario):', 'error');
  list('interrupted:', 'interrupted');
  // Exactly `N passed, N failed[, N error(s)][, N interrupted][, N skipped]`, alone and uncoloured: CI reads this line.
  const errors = s.errors ? `, ${s.errors} error${s.errors === 1 ? '' : 's'}` : '';
  const interrupted = s.interrupted ? `, ${s.interrupted} interrupted` : '';
  line(`${s.passed} passed, ${s.failed} failed${errors}${interrupted}${s.skipped ? `, ${s.skipped} skipped` : ''}`);
  line(`total time ${seconds(s.ms, 2)} s`);
}
