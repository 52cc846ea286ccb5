// The thread that polls readiness probes with wait-on (probes.ts sends it the resources). wait-on, with axios, joi,
// rxjs and lodash, takes about a quarter of a second of CPU to load and its polls are axios requests: on this thread
// both run beside the main one, which meanwhile restores a chain state and starts the programs being waited for.
// wait-on cannot be cancelled: each run lasts at most SLICE_MS, and a poll told to stop ends with its slice.
import { parentPort } from 'node:worker_threads';
import waitOn from 'wait-on';

/** A poll of one resource until it is available or cancelled. */
export interface PollRequest {
  kind: 'poll';
  id: number;
  /** A wait-on resource: http:, http-get:, tcp:. */
  resource: string;
  everyMs: number;
  requestTimeoutMs: number;
  /** The HTTP statuses that count as an answer (none given: any 2xx). */
  answers?: readonly number[];
}

export type ToThread = PollRequest | { kind: 'cancel'; id: number };

export type FromThread =
  /** Available (true), or cancelled before it was (false). */
  | { kind: 'done'; id: number; available: boolean }
  /** wait-on refused the poll (a malformed resource). */
  | { kind: 'failed'; id: number; message: string }
  /** An answer that does not count, for the timeout's message. */
  | { kind: 'status'; id: number; status: number };

const SLICE_MS = 1000;
const running = new Set<number>();
const cancelled = new Set<number>();

async function poll(r: PollRequest, tell: (m: FromThread) => void): Promise<void> {
  const validateStatus = (status: number): boolean => {
    const ok = r.answers ? r.answers.includes(status) : status >= 200 && status < 300;
    if (!ok) tell({ kind: 'status', id: r.id, status });
    return ok;
  };
  running.add(r.id);
  try {
    while (!cancelled.has(r.id)) {
      try {
        await waitOn({
          resources: [r.resource],
          interval: Math.max(10, Math.round(r.everyMs)),
          timeout: SLICE_MS,
          httpTimeout: Math.round(r.requestTimeoutMs),
          tcpTimeout: Math.round(r.requestTimeoutMs),
          // wait-on waits that long for a resource to stay available: a program's RPC answering once is enough.
          window: 0,
          followRedirect: false,
          proxy: false,
          validateStatus,
        });
        return tell({ kind: 'done', id: r.id, available: true });
      } catch (err) {
        // wait-on's own timeout ends a slice: poll on unless cancelled. Anything else goes back to the caller.
        if (!(err instanceof Error && err.message.startsWith('Timed out waiting for'))) throw err;
      }
    }
    tell({ kind: 'done', id: r.id, available: false });
  } catch (err) {
    tell({ kind: 'failed', id: r.id, message: err instanceof Error ? err.message : String(err) });
  } finally {
    running.delete(r.id);
    cancelled.delete(r.id);
  }
}

const port = parentPort;
if (port) {
  const tell = (m: FromThread): void => port.postMessage(m);
  port.on('message', (m: ToThread) => {
    if (m.kind === 'cancel') {
      if (running.has(m.id)) cancelled.add(m.id);
    } else void poll(m, tell);
  });
}
