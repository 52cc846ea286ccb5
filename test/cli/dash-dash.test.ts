// What follows `--` on a command line is a positional however it looks: `saltnet fund ADDR -- 5`, `saltnet automine
// interval -- 5`, `saltnet mine -- -5`. yargs alone leaves such words out of a command's positionals.
import { describe, expect, it } from 'vitest';
import { positionalsAfterDashDash } from '../../harness/cli/dash-dash.js';
import { ParsedOnly, saltnetCli } from '../../harness/cli/program.js';

/** The arguments the line parses to, or the message it is refused with. */
async function parsed(args: string[]): Promise<Record<string, unknown>> {
  try {
    await saltnetCli(args, { parseOnly: true }).parseAsync();
  } catch (err) {
    if (err instanceof ParsedOnly) return err.argv;
    throw err;
  }
  throw new Error('ran a command instead of parsing');
}

describe('positionals after --', () => {
  it('fill the command positionals they stand for', async () => {
    expect(await parsed(['fund', 'ADDR', '--', '5'])).toMatchObject({ address: 'ADDR', amount: '5' });
    expect(await parsed(['fund', '--', 'ADDR', '5'])).toMatchObject({ address: 'ADDR', amount: '5' });
    expect(await parsed(['automine', 'interval', '--', '5'])).toMatchObject({ mode: 'interval', seconds: '5' });
    expect(await parsed(['mine', '--', '3'])).toMatchObject({ blocks: 3 });
  });

  it('leave the options before them their values', async () => {
    expect(await parsed(['fund', 'ADDR', '--asset', 'salX', '--', '5'])).toMatchObject({
      address: 'ADDR',
      amount: '5',
      asset: 'salX',
    });
    expect(await parsed(['fund', 'ADDR', '--json', '--', '5'])).toMatchObject({ amount: '5', json: true });
  });

  it('a negative number after -- is a positional, checked as one', async () => {
    await expect(parsed(['mine', '--', '-5'])).rejects.toThrow('<blocks>: -5 is too small: it must be at least 1');
  });

  it('a command without positionals keeps its --: record runs the command after it', () => {
    const commands = new Map([
      ['record', false],
      ['fund', true],
    ]);
    const line = ['record', '--out', 'bug.yaml', '--', 'node', 'app.js'];
    expect(positionalsAfterDashDash(line, commands)).toEqual(line);
    // A word after -- that yargs would read as an option stays behind the --.
    expect(positionalsAfterDashDash(['fund', 'ADDR', '--', '--x'], commands)).toEqual(['fund', 'ADDR', '--', '--x']);
    expect(positionalsAfterDashDash(['fund', 'ADDR', '--', '5'], commands)).toEqual(['fund', 'ADDR', '5']);
  });
});
