// Serve the testnet's explorer (once; later asks get the same page) (`saltnet ui`, `up --ui`): a live page of its
// chain, pool, tokens, wallets and programs.
import { z } from 'zod';
import { parseNumberText } from '../config/numbers.js';
import { readMetrics } from '../metrics/metrics.js';
import type { Testnet } from '../testnet/types.js';
import { explorer } from '../ui/explorer.js';
import type { UiServer } from '../ui/server.js';
import { defineOperation, whole } from './operation.js';

export interface UiAnswer {
  url: string;
}

const PORT = { whole: true, min: 1, max: 65535 } as const;

/** `--ui-port`'s value: a TCP port, or an error that says so and shows what was given. */
export function uiPort(v: unknown): number {
  if (Array.isArray(v)) throw new Error(`--ui-port is given ${v.length} times; give it once`);
  const r = parseNumberText(String(v), PORT);
  if ('problem' in r)
    throw new Error(`--ui-port needs a port number from 1 to 65535, got ${JSON.stringify(String(v))}`);
  return r.value;
}

/** `--ui-port`, as `saltnet ui` and `saltnet up --ui` take it. */
export const uiPortOption = {
  type: 'string',
  describe: 'serve the explorer on this port of 127.0.0.1 (a port number from 1 to 65535; default: a free one)',
  coerce: uiPort,
} as const;

/** The testnet's explorer (started on first use), its metrics view reading the testnet's metrics registry. */
export function openExplorer(t: Testnet, port?: number): Promise<UiServer> {
  return explorer(t, { ...(port !== undefined ? { port } : {}), metrics: async () => (await readMetrics(t)).metrics });
}

export const uiOperation = defineOperation({
  name: 'ui',
  what: 'start the explorer',
  body: z.strictObject({ port: whole(1, 65535, 'a TCP port') }),
  concurrent: true,
  async run(t, { port }): Promise<UiAnswer> {
    return { url: (await openExplorer(t, port)).url };
  },
  command: {
    usage: 'ui',
    describe: "serve the running testnet's explorer (a live page of its chain, pool, tokens, wallets and programs)",
    options: { 'ui-port': uiPortOption },
    body: (a) => (a.uiPort !== undefined ? { port: a.uiPort as number } : {}),
    say: ({ url }) => `explorer: ${url}\n(read-only; it lives as long as the testnet)`,
  },
});
