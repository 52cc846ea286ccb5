// The real programs' flags that docs/scale-out.md's container sketches (its compose file, which no engine runs here)
// give salviumd and salvium-wallet-rpc are flags those programs have: each is in the program's own --help.
import { join } from 'node:path';
import { execa } from 'execa';
import { parse as parseYaml } from 'yaml';
import { expect, it } from 'vitest';
import { blocksOf, ROOT } from '../docs/blocks.js';
import { BIN_DIR, describeReal } from './real.js';

const PROGRAMS = ['salviumd', 'salvium-wallet-rpc'] as const;

/** Every `--flag` given to each program in a command line (its words up to a shell operator). */
function flagsIn(command: string): Array<{ program: string; flag: string }> {
  const words = command.split(/\s+/);
  const out: Array<{ program: string; flag: string }> = [];
  words.forEach((w, i) => {
    if (!(PROGRAMS as readonly string[]).includes(w)) return;
    for (const next of words.slice(i + 1)) {
      if (['&&', '||', '|', '<', '>', ';'].includes(next)) break;
      if (next.startsWith('--')) out.push({ program: w, flag: next.replace(/'$/, '').split('=')[0]! });
      if (next.endsWith("'")) break; // the end of an `sh -c '…'` script
    }
  });
  return out;
}

describeReal("the programs' flags in docs/scale-out.md", () => {
  it('are in --help of the real salviumd and salvium-wallet-rpc', async () => {
    const commands = blocksOf(join(ROOT, 'docs/scale-out.md'))
      .filter((b) => b.lang === 'yaml' && b.text.includes('services:'))
      .flatMap((b) =>
        Object.values((parseYaml(b.text) as { services: Record<string, { command?: string | string[] }> }).services),
      )
      .map((s) => [s.command ?? []].flat().join(' '));
    const used = commands.flatMap(flagsIn);
    expect(new Set(used.map((u) => u.program))).toEqual(new Set(PROGRAMS));
    const help: Record<string, string> = {};
    for (const p of PROGRAMS) help[p] = (await execa(join(BIN_DIR, p), ['--help'], { reject: false, all: true })).all;
    const missing = used.filter(({ program, flag }) => !new RegExp(`^\\s+${flag}(\\s|$)`, 'm').test(help[program]!));
    expect(missing).toEqual([]);
  });
});
