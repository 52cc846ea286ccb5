// Every method docs/sim-coverage.md calls modelled is one the real programs were seen answering: a scenario of the
// newest conformance recording calls it (test/sim/conformance-recorded.test.ts holds the simulator to those answers),
// or a fixture recorded from the real programs holds its request (fixtures/salvium-v1.1.3c/, fixtures/transcripts/:
// the sim tests replay them). The few that are neither are listed below with the reason, so a new modelled method
// without a real answer behind it fails here.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newestRecording, readRecording } from '../../harness/diff/recording.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Modelled, settled on the real programs, but in no recording: why. */
const UNRECORDED: Record<string, string> = {
  '/pop_blocks': 'it takes blocks off a chain that the other scenarios of a shared-isolation run build on',
  '/get_transaction_pool_hashes.bin': 'epee binary: compared by test/sim/http tests, not by JSON recordings',
};

/** The first method name of each row whose status is modelled. */
function modelled(doc: string): string[] {
  return [...doc.matchAll(/^\|\s*`([^`]+)`[^|]*\|\s*modelled\s*\|/gm)].map((m) => m[1]!);
}

/** Whether `text` names `method` as a method (`transfer`, not `transfer_split`; `/get_info`, or as a path). */
function names(text: string, method: string): boolean {
  const bare = method.replace(/^\//, '');
  return new RegExp(`(?<![\\w/.])/?${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.])`).test(text);
}

async function recordedText(): Promise<string> {
  const corpus = join(ROOT, 'fixtures', 'conformance');
  const newest = await newestRecording(corpus);
  if (!newest) throw new Error(`no recording in ${corpus}`);
  const rec = await readRecording(newest);
  const scenarios = rec.manifest.scenarios.map((e) => readFileSync(join(ROOT, e.file), 'utf8'));
  const fixtures = ['fixtures/salvium-v1.1.3c', 'fixtures/transcripts/salvium-v1.1.3c'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => !f.endsWith('-methods.json'))
      .map((f) => readFileSync(join(ROOT, dir, f), 'utf8')),
  );
  return [...scenarios, ...fixtures].join('\n');
}

describe('every modelled method has a real answer behind it', () => {
  it('is called by a recorded scenario or held by a real-recorded fixture, or listed with the reason it is not', async () => {
    const text = await recordedText();
    const methods = modelled(readFileSync(join(ROOT, 'docs', 'sim-coverage.md'), 'utf8'));
    expect(methods.length).toBeGreaterThan(100);
    const unseen = methods.filter((m) => !names(text, m) && !(m in UNRECORDED));
    expect(unseen, 'modelled in docs/sim-coverage.md, but no real recording calls them').toEqual([]);
    const stale = Object.keys(UNRECORDED).filter((m) => names(text, m) || !methods.includes(m));
    expect(stale, 'listed as unrecorded, but recorded (or no longer modelled): drop them from UNRECORDED').toEqual([]);
  });

  it('tells a method from a longer name and from a path segment', () => {
    expect(names('  - transfer_split: {}', 'transfer')).toBe(false);
    expect(names('  - transfer: {}', 'transfer')).toBe(true);
    expect(names('call: { path: /get_info }', '/get_info')).toBe(true);
    expect(names('"path": "/json_rpc/get_info.bin"', '/get_info')).toBe(false);
  });
});
