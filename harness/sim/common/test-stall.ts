// TEST ONLY knobs for saltnet's fault suite: an RPC that stops answering while the process lives on
// (what a deadlock looks like from outside), and a request held back long enough to freeze or kill
// the program while it is under way. Never set them otherwise (harness/sim/README.md).
//
// SALTNET_SIM_TEST_DEADLOCK=1: SIGUSR2 toggles a deadlock: from then on no request is answered (each
//   is held, the process idle), until the next SIGUSR2.
// SALTNET_SIM_TEST_STALL=<method>:<ms>[,…]: the answer to each of these JSON-RPC methods (or URI
//   paths, e.g. /get_height) is held back that long; the log says `TEST stall <method>` when it begins.
//   The simulated wallet CLI holds back the wallet's generation (a restore) for `wallet_cli_generate`.

type Log = (line: string) => void;

let deadlocked = false;
let waiting: (() => void)[] = [];

function parseStalls(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of text.split(',')) {
    const m = /^\s*([^:\s]+)\s*:\s*(\d+)\s*$/.exec(item);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/** The hook the simulated servers call before answering a request; undefined when no knob is set. */
export function testStall(log: Log): ((path: string, body: string) => Promise<void>) | undefined {
  const stalls = parseStalls(process.env.SALTNET_SIM_TEST_STALL ?? '');
  const deadlock = process.env.SALTNET_SIM_TEST_DEADLOCK === '1';
  if (!deadlock && stalls.size === 0) return undefined;
  if (deadlock)
    process.on('SIGUSR2', () => {
      deadlocked = !deadlocked;
      log(`TEST deadlock ${deadlocked ? 'on' : 'off'}`);
      if (!deadlocked) for (const w of waiting.splice(0)) w();
    });
  return async (path, body) => {
    const method = path === '/json_rpc' ? /"method"\s*:\s*"([^"]+)"/.exec(body)?.[1] : path;
    const ms = method === undefined ? undefined : stalls.get(method);
    if (ms !== undefined) {
      log(`TEST stall ${method}`);
      await new Promise((r) => setTimeout(r, ms));
    }
    while (deadlocked) await new Promise<void>((r) => waiting.push(r));
  };
}

/** Forget the deadlock state (for tests of the module). */
export function resetTestStall(): void {
  deadlocked = false;
  waiting = [];
}
