// What a scenario run's artifacts must and must not hold, as data (where they go, and no
// secret in them): each case is a scenario file, the environment it runs with, and a check of its
// artifact folder, its JUnit report and the run's output. artifact-secrets.test.ts runs them all in
// one `saltnet run` on the simulator; the fault suite (test/hostile/) can take the same list.
import { expect } from 'vitest';

export interface ArtifactFile {
  /** Relative to the artifact folder. */
  path: string;
  text: string;
  /** Permission bits, and whether it is a folder. */
  mode: number;
  folder: boolean;
}

export interface ArtifactRun {
  /** Every file and folder of the scenario's artifact folder (the folder itself as ''). */
  files: ArtifactFile[];
  /** The JUnit report of the whole run. */
  junit: string;
  /** stdout and stderr of the whole run. */
  output: string;
}

export interface ArtifactCase {
  id: string;
  /** The scenario file (its name: the artifact folder's name ends in its slug). */
  scenario: string;
  /** Environment the run needs. */
  env?: Record<string, string>;
  /** Throws (an expect) unless the run's artifacts are as they must be. */
  check(run: ArtifactRun): void;
}

/** 25 words of a seed, one space apart: a query_key mnemonic answer. */
export const MNEMONIC = /\b([a-z]+ ){24}[a-z]+\b/;

const file = (run: ArtifactRun, path: string): string => run.files.find((f) => f.path === path)!.text;

export const ARTIFACT_CASES: ArtifactCase[] = [
  {
    id: 'a one-character ${env} secret changes none of saltnet words or keys',
    scenario: `name: a one character secret
requires: { height: 20 }
steps:
  - call: { method: get_info, on: daemon }
  - name: expects the short secret
    call: { path: /get_info, on: daemon }
    expect:
      result.status: "\${env.SALTNET_TEST_SHORT}"
`,
    env: { SALTNET_TEST_SHORT: 'x' },
    check: (run) => {
      const result = JSON.parse(file(run, 'result.json'));
      expect(result.steps.map((s: { index: number }) => s.index)).toEqual([0, 1]);
      expect(result.failure).toMatchObject({
        message: 'result.status: expected "<redacted env.SALTNET_TEST_SHORT>", got "OK"',
        expected: '"<redacted env.SALTNET_TEST_SHORT>"',
      });
      expect(run.output).toMatch(/failed at step 2 \(expects the short secret\)/);
      expect(run.output).toContain('${env.SALTNET_TEST_SHORT} is 1 character long, hardly a secret');
      for (const text of [run.output, run.junit, ...run.files.map((f) => f.text)]) {
        expect(text).not.toMatch(/NaN|<redacted env\.SALTNET_TEST_SHORT>[a-z]|[a-z]<redacted env\.SALTNET_TEST_SHORT>/);
        expect(text).not.toMatch(/"[a-z_]+<redacted/); // no JSON key touched
      }
    },
  },
  {
    id: 'query_key answers are redacted from the transcript, the result, the report and the output',
    scenario: `name: wallet secrets stay out
requires: { height: 20 }
steps:
  - name: the mnemonic
    call: { method: query_key, params: { key_type: mnemonic } }
    expect:
      result.key: { type: string }
  - name: the spend key, expected to be another
    call: { method: query_key, params: { key_type: spend_key } }
    expect:
      result.key: "0000"
`,
    check: (run) => {
      expect(file(run, 'transcript.jsonl').match(/"result":\{"key":"<redacted query_key key>"\}/g)).toHaveLength(2);
      expect(JSON.parse(file(run, 'result.json')).failure.message).toBe(
        'result.key: expected "0000", got "<redacted query_key key>"',
      );
      // (commands.txt and the log copies show how the testnet restored its fixture wallets, whose seeds are public:
      // fixtures/wallets)
      const written = run.files.filter((f) => f.path !== 'commands.txt' && !f.path.startsWith('logs'));
      for (const text of [run.output, run.junit, ...written.map((f) => f.text)]) expect(text).not.toMatch(MNEMONIC);
      expect(run.junit).toContain('&lt;redacted query_key key&gt;');
    },
  },
  {
    id: 'artifacts: { keep_secrets: true } keeps them',
    scenario: `name: wallet secrets kept
artifacts: { keep_secrets: true }
requires: { height: 20 }
steps:
  - call: { method: query_key, params: { key_type: mnemonic } }
`,
    check: (run) => expect(file(run, 'transcript.jsonl')).toMatch(MNEMONIC),
  },
];

/** What every case's artifacts must be: the folder and its folders 0700, its files 0600, its logs copied. */
export function checkModes(run: ArtifactRun): void {
  expect(run.files.some((f) => f.path.startsWith('logs/') && !f.folder)).toBe(true);
  for (const f of run.files) expect(f.mode.toString(8), f.path).toBe(f.folder ? '700' : '600');
}
