// An operation is defined once (harness/operations/operation.ts): a made-up one, added here in this one file, shows on
// all five faces — served by the control endpoint at POST /<name> and asked for by name through the client, asked
// from a vitest test, a `saltnet` command of its own (`saltnet operate <name>` asks the same endpoint:
// test/cli/cli.test.ts), and a scenario step kind, checked at its line and run on the simulator — its body checked
// like the built-in ones'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeFileSync } from 'node:fs';
import { ParsedOnly, saltnetCli } from '../../harness/cli/program.js';
import { operate } from '../../harness/control/client.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { scenarioJsonSchema } from '../../harness/scenario/schema.js';
import { defineOperation } from '../../harness/operations/operation.js';
import { operationNamed, operations, registerOperation } from '../../harness/operations/index.js';
import { startControlServer, type ControlServer } from '../../harness/control/server.js';
import type { Testnet } from '../../harness/testnet/types.js';
import type { SaltnetContext } from '../../harness/vitest/context.js';
import { operation } from '../../harness/vitest/index.js';

const echo = defineOperation({
  name: 'echo-height',
  what: 'echo the height',
  body: z.strictObject({ plus: z.int().min(0).max(10).describe('a whole number from 0 to 10') }),
  async run(t, { plus }) {
    return { height: (await t.height()) + plus };
  },
  command: {
    usage: 'echo-height [plus]',
    describe: 'say the height plus a number',
    positionals: { plus: { type: 'number', describe: 'what to add' } },
    body: (a) => ({ plus: (a.plus as number | undefined) ?? 0 }),
    say: (r) => `height ${r.height}`,
  },
  step: { name: (v) => `echo the height plus ${String(v.plus)}`, docs: { note: 'Says the height plus a number.' } },
});

let dir: string;
let server: ControlServer;
beforeAll(async () => {
  registerOperation(echo);
  dir = mkdtempSync(join(tmpdir(), 'saltnet-operations-'));
  const testnet = {
    workdir: dir,
    height: async () => 30,
    unresponsive: () => [],
    onEvent: () => () => undefined,
  } as unknown as Testnet;
  server = await startControlServer(testnet, join(dir, 'cache'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the table of operations', () => {
  it('holds each built-in operation once, by the name it is served at', () => {
    const names = operations().map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['mine', 'fund', 'automine', 'partition', 'heal', 'link', 'sync']));
    expect(operationNamed('echo-height')).toBe(echo);
  });

  it('serves a made-up operation and answers it through the client', async () => {
    expect(await operate(server.info, 'echo-height', { plus: 2 })).toEqual({ height: 32 });
  });

  it("checks its body as the built-in ones' are: the field, what it takes, what it got", async () => {
    await expect(operate(server.info, 'echo-height', { plus: '2' })).rejects.toThrow(
      'cannot echo the height: plus must be a whole number from 0 to 10, got the string "2"',
    );
    await expect(operate(server.info, 'echo-height', { plus: 1, plu: 2 })).rejects.toThrow(
      'cannot echo the height: unknown field "plu" (did you mean plus?); this request takes plus',
    );
  });

  it('is asked from a vitest test by name, on the context of its global setup', async () => {
    const context = { version: 1, daemonUrl: 'http://127.0.0.1:1', wallet: { url: 'http://127.0.0.1:1' } };
    expect(await operation({ ...context, control: server.info } as SaltnetContext, 'echo-height', { plus: 0 })).toEqual(
      { height: 30 },
    );
  });

  it('refuses a second operation of a name, the endpoint’s own /cancel included', () => {
    expect(() => registerOperation({ ...echo })).toThrow('an operation named echo-height exists already');
    expect(() => registerOperation({ ...echo, name: 'cancel' })).toThrow('an operation named cancel exists already');
  });
});

describe('its command and its step kind', () => {
  it('is a saltnet command, its words read by its face', async () => {
    const parsed = await (async () =>
      saltnetCli(['echo-height', '3', '--run', 'r1', '--json'], { parseOnly: true }).parseAsync())().then(
      () => undefined,
      (e: unknown) => (e instanceof ParsedOnly ? e.argv : e),
    );
    expect(parsed).toMatchObject({ _: ['echo-height'], plus: 3, run: 'r1', json: true });
    expect(echo.command!.body!({ plus: 3 }, {} as never)).toEqual({ plus: 3 });
  });

  it('is a step kind: in the JSON Schema, a placeholder allowed, a bad value refused at its line', () => {
    expect(JSON.stringify(scenarioJsonSchema())).toContain('say the height plus a number');
    const s = parseScenario('name: e\nsteps:\n  - echo-height: { plus: "${height}" }\n', 'e.yaml');
    expect(s.steps[0]).toMatchObject({ name: 'echo the height plus ${height}', action: { kind: 'echo-height' } });
    expect(() => parseScenario('name: e\nsteps:\n  - echo-height: { plus: 11 }\n', 'b.yaml')).toThrow(
      /^b\.yaml:3:\d+: steps\[0\]\.echo-height\.plus: /,
    );
  });

  it('runs as a step on the simulator, answering {result: <its answer>}, its filled-in body checked', async () => {
    const f = join(dir, 'echo.yaml');
    writeFileSync(
      f,
      [
        'name: echo',
        'steps:',
        '  - echo-height: { plus: 0 }',
        '    save: { h: result.height }',
        '  - call: { path: /get_height }',
        '    expect: { result.height: "${h}" }',
        '  - echo-height: { plus: "x${h}" }',
        '',
      ].join('\n'),
    );
    const [r] = await runFiles([f], {
      backend: 'sim',
      isolation: 'fresh',
      workers: 1,
      bail: false,
      artifactsRoot: join(dir, 'artifacts'),
      log: () => undefined,
    });
    expect(r!.steps.map((x) => x.status)).toEqual(['passed', 'passed', 'failed']);
    // A placeholder's value is checked when the step runs, as the control endpoint checks a body.
    expect(r!.failure?.message).toMatch(
      /cannot echo the height: plus must be a whole number from 0 to 10, got the string "x\d+"/,
    );
  });
});
