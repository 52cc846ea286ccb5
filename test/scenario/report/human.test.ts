import { describe, expect, it } from 'vitest';
import { createHumanReporter } from '../../../harness/scenario/report/human.js';
import type { ScenarioResult } from '../../../harness/scenario/types.js';
import { failing, interruptedRun, notRun, passing, processDied, setupFailed, skippedScenario } from './fixtures.js';

function run(results: ScenarioResult[], color = false, streamSteps = true): string {
  let out = '';
  const rep = createHumanReporter({ write: (s) => void (out += s) }, { color });
  for (const r of results) {
    rep.scenarioStart({ file: r.file, name: r.name });
    if (streamSteps) for (const s of r.steps) rep.step(s);
    rep.scenarioEnd(r);
  }
  rep.summary(results);
  return out;
}

const lines = (s: string): string[] => s.split('\n');

describe('human reporter', () => {
  it('a passing run: a line per step with its time, the summary line, total time, no colours', () => {
    const out = run([passing]);
    expect(out).toContain(`${passing.file} — ${passing.name}\n`);
    expect(lines(out)).toContain('  ✓ create_token ABCD  (1.25 s)');
    expect(lines(out)).toContain('  ✓ mine 1  (2.00 s)');
    expect(lines(out)).toContain('  ✓ get_tokens  (0.01 s)');
    expect(out).toContain('✓ passed in 3.46 s');
    expect(lines(out)).toContain('1 passed, 0 failed');
    expect(lines(out)).toContain('total time 3.46 s');
    expect(out).not.toContain('\x1b');
    expect(out).not.toContain('artifacts:');
  });

  it('a failing run: the step, file:line:col, path, expected, actual, log tails, artifact folder', () => {
    const out = run([passing, failing, setupFailed, skippedScenario]);
    const l = lines(out);
    expect(l).toContain(`  ✗ get_balance <bob's> & co  (2.00 s)`);
    expect(l).toContain('      expectation failed: "unlocked" < 1.5 SAL1');
    expect(l).toContain('      second line');
    expect(l).toContain(`      at scenarios/odd <&"'>.yaml:12:7`);
    expect(l).toContain('      path: result.balances[0].unlocked_balance');
    expect(l).toContain('      expected: { gte: 150000000 }');
    expect(l).toContain('      actual: 0\\x01red'); // colour codes of the value stripped, control char shown
    expect(l).toContain('  - mine 1  (skipped)');
    expect(l).toContain("✗ failed at step 2 (get_balance <bob's> & co) in 2.10 s");
    expect(l).toContain('  last lines of the logs:');
    expect(l).toContain('    daemon:');
    expect(l).toContain('      | 2025-01-01 00:00:00 I height 1201');
    expect(l).toContain('    wallet-rpc:');
    expect(l).toContain('      | Error: <refused> & "quoted"');
    expect(l).toContain('  artifacts: /tmp/artifacts/run & <1>');
    // the failure is shown once
    expect(out.split('path: result.balances[0].unlocked_balance').length).toBe(2);
    // setup error (infrastructure): labelled apart from failures, its message is shown
    expect(l).toContain('✗ ERROR (infrastructure) before the first step in 0.80 s');
    expect(l).not.toContain('✗ failed before the first step in 0.80 s');
    expect(l).toContain('    funding bob failed: -1 not enough money');
    expect(l).toContain('- skipped: written for backends: monero');
    // the failed list, the summary line alone on its line, the total
    // a failure of several lines: each line listed under the scenario's place and name
    const at = l.indexOf(`  scenarios/odd <&"'>.yaml:12:7 — transfer "bob" & <check>:`);
    expect(at).toBeGreaterThan(l.indexOf('failed:'));
    expect(l.slice(at + 1, at + 3)).toEqual(['    expectation failed: "unlocked" < 1.5 SAL1', '    second line']);
    expect(l).toContain('errors (infrastructure, not the scenario):');
    expect(l).toContain('  scenarios/setup.yaml — needs funding: funding bob failed: -1 not enough money');
    expect(l).toContain('1 passed, 1 failed, 1 error, 1 skipped');
    expect(l.filter((x) => /^\d+ passed, \d+ failed(, \d+ errors?)?(, \d+ skipped)?$/.test(x))).toHaveLength(1);
    expect(l).toContain(`total time ${((3456.789 + 2100 + 800) / 1000).toFixed(2)} s`);
    expect(out).not.toContain('\x1b');
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('an infrastructure error is listed apart from the failures and counted as an error', () => {
    const l = lines(run([failing, setupFailed]));
    const failedList = l.slice(l.indexOf('failed:'), l.indexOf('errors (infrastructure, not the scenario):'));
    expect(failedList.some((x) => x.includes('needs funding'))).toBe(false);
    expect(failedList.some((x) => x.includes('transfer "bob"'))).toBe(true);
    expect(l).toContain('0 passed, 1 failed, 1 error');
  });

  it('a process that died under a step: the step as it failed, then what died, under an ERROR label', () => {
    const l = lines(run([processDied, setupFailed]));
    expect(l).toContain('  ✗ get_info  (0.02 s)');
    expect(l).toContain('      connect ECONNREFUSED 127.0.0.1:4000');
    expect(l).toContain('✗ ERROR (infrastructure) at step 2 (get_info) in 1.50 s');
    expect(l).toContain(
      "    the testnet's daemon died (killed by SIGKILL) and was not started again: connect ECONNREFUSED 127.0.0.1:4000",
    );
    expect(l).toContain('      | height 30');
    expect(l).not.toContain('failed:');
    expect(l).toContain('0 passed, 0 failed, 2 errors');
  });

  it('an interrupted run: the step it stopped, the label, the list and the count', () => {
    const l = lines(run([passing, interruptedRun, notRun]));
    expect(l).toContain('  ✗ the long wait  (interrupted by SIGINT)');
    expect(l).toContain('  - after  (skipped)');
    expect(l).toContain('✗ interrupted by SIGINT at step 2 (the long wait) in 2.50 s');
    expect(l).toContain('interrupted:');
    expect(l).toContain('  scenarios/waits.yaml:5:5 — waits a long time: interrupted by SIGINT');
    expect(l).toContain('1 passed, 0 failed, 1 interrupted, 1 skipped');
    expect(l).not.toContain('failed:');
    expect(l.join('\n')).not.toContain('ERROR');
  });

  it('shows the failure at the end when steps were not streamed', () => {
    const out = run([failing], false, false);
    expect(out).toContain(`    at scenarios/odd <&"'>.yaml:12:7`);
    expect(out).toContain('    expected: { gte: 150000000 }');
  });

  it('colours only when asked; the summary line stays plain', () => {
    const out = run([passing, failing], true);
    expect(out).toContain('\x1b[32m✓\x1b[0m create_token ABCD');
    expect(out).toContain('\x1b[31m✗\x1b[0m');
    expect(lines(out)).toContain('1 passed, 1 failed');
  });

  it('a file that does not parse: headed by its path once; the summary names the path once and lists every problem', () => {
    const file = '/w/bad.yaml';
    const problems = Array.from({ length: 7 }, (_, i) => `${file}:${i + 2}:3: steps[${i}]: problem ${i + 1}`);
    const r: ScenarioResult = {
      file,
      name: file,
      status: 'failed',
      ms: 10,
      backend: 'sim',
      steps: [],
      failure: { message: problems.join('\n') },
    };
    const out = run([r]);
    const l = lines(out);
    expect(l[0]).toBe(file);
    expect(out).not.toContain(`${file} — ${file}`);
    const at = l.indexOf(`  ${file}:`);
    expect(at).toBeGreaterThan(l.indexOf('failed:'));
    expect(l.slice(at + 1, at + 7)).toEqual([
      '    2:3: steps[0]: problem 1',
      '    3:3: steps[1]: problem 2',
      '    4:3: steps[2]: problem 3',
      '    5:3: steps[3]: problem 4',
      '    6:3: steps[4]: problem 5',
      '    … and 2 more (above)',
    ]);
  });
});
