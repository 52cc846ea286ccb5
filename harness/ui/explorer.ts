// One explorer per running testnet, in the process that owns it: `saltnet up --ui` starts it with
// the testnet, `saltnet ui` asks that process (its control endpoint) for it later, and both get the
// same page. The run record says where it is (`saltnet status`).
import type { Testnet } from '../testnet/types.js';
import { startUiServer, type UiServer, type UiServerOptions } from './server.js';
import { testnetSource } from './source.js';

const explorers = new WeakMap<Testnet, Promise<UiServer>>();

/**
 * The testnet's explorer, started on first use. It keeps its port while the testnet runs: a later call that asks for
 * another port is refused with a message naming the port it is on.
 */
export async function explorer(t: Testnet, o: UiServerOptions = {}): Promise<UiServer> {
  const running = explorers.get(t);
  if (running) {
    const served = await running;
    if (o.port !== undefined && o.port !== served.port)
      throw new Error(
        `the explorer is already served on port ${served.port} (${served.url}) and keeps that port while the testnet ` +
          `runs; ask without --ui-port (or with --ui-port ${served.port}) to get its address`,
      );
    return served;
  }
  const e = (async (): Promise<UiServer> => {
    const src = testnetSource(t, o.log ?? ((line) => process.stderr.write(`${line}\n`)));
    try {
      const server = await startUiServer(src, o);
      t.supervisor.updateInfo({ ui: server.url });
      return {
        ...server,
        close: async () => {
          await server.close();
          await src.close();
        },
      };
    } catch (err) {
      await src.close();
      throw err;
    }
  })();
  explorers.set(t, e);
  e.catch(() => explorers.delete(t));
  return e;
}

/** Stop the testnet's explorer, if it has one. */
export async function closeExplorer(t: Testnet): Promise<void> {
  const e = explorers.get(t);
  explorers.delete(t);
  if (e) await (await e.catch(() => undefined))?.close();
}
