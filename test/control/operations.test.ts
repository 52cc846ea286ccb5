// An operation is defined once (harness/control/operation.ts): a made-up one, added here, is served by the control
// endpoint at POST /<name> and asked for by name through the client and from a vitest test (`saltnet operate <name>`
// asks the same endpoint: test/cli/cli.test.ts), its body checked like the built-in ones'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operate } from '../../harness/control/client.js';
import { defineOperation } from '../../harness/control/operation.js';
import { operationNamed, operations, registerOperation } from '../../harness/control/operations/index.js';
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
