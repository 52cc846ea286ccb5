// The life of a testnet after its start, as events: every crash, every pid change and a failure are
// told to the listeners (`saltnet up --json` prints them), kept in the run record (so `saltnet
// status` shows what runs now, restarting or failed), and a crash after ready keeps the temporary
// workdir with its logs.
import type { Supervisor } from '../process/supervisor.js';
import type { ProgramEvent } from './programs/program.js';

/** What happens to the testnet: its programs' events, and its workdir gone from under it (the testnet then stops). */
export type TestnetEvent = ProgramEvent | { event: 'workdir-gone'; workdir: string; message: string; at: string };

/** A program's state as the run record gives it to `saltnet status`. */
export interface ProgramStatus {
  pid: number;
  /** `unresponsive`: running, but not answering (liveness.ts): why and since when in `unresponsive`. */
  state: 'running' | 'unresponsive' | 'restarting' | 'stopped' | 'failed';
  restarts: number;
  lastCrash?: { pid: number; exit: string; at: string; logFile: string };
  unresponsive?: { reason: string; since: string };
}

export interface RunEvents {
  /** Feed of the programs' events (ProgramOptions.onEvent), and the testnet's own. */
  handle(e: TestnetEvent): void;
  on(listener: (e: TestnetEvent) => void): () => void;
  /** The failure that ended the testnet, if one did. */
  readonly failure: TestnetEvent | undefined;
  /** Set once a program crashed while the testnet was up. */
  readonly crashedAfterReady: boolean;
}

export function runEvents(sup: Supervisor, o: { isUp: () => boolean; onCrashAfterReady: () => void }): RunEvents {
  const listeners = new Set<(e: TestnetEvent) => void>();
  const programs: Record<string, ProgramStatus> = {};
  let failure: TestnetEvent | undefined;
  let crashedAfterReady = false;
  const publish = (): void => sup.updateInfo({ programs: structuredClone(programs) });
  const entry = (name: string): ProgramStatus => (programs[name] ??= { pid: 0, state: 'stopped', restarts: 0 });
  return {
    handle(e) {
      if (e.event === 'workdir-gone') failure ??= e;
      else record(entry(e.program), e);
      publish();
      for (const l of [...listeners]) {
        try {
          l(e);
        } catch {
          /* one listener's bug must not hide the event from the others */
        }
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get failure() {
      return failure;
    },
    get crashedAfterReady() {
      return crashedAfterReady;
    },
  };
  /** What a program's event changes in its status. */
  function record(p: ProgramStatus, e: ProgramEvent): void {
    if (e.event !== 'unresponsive') delete p.unresponsive;
    if (e.event === 'pid') Object.assign(p, { pid: e.pid, state: 'running' });
    else if (e.event === 'stopped') p.state = 'stopped';
    else if (e.event === 'unresponsive')
      Object.assign(p, { state: 'unresponsive', unresponsive: { reason: e.reason, since: e.since } });
    else if (e.event === 'responsive') p.state = 'running';
    else if (e.event === 'crash') {
      const exit = e.exit.signal ? `signal ${e.exit.signal}` : `exit code ${e.exit.code}`;
      Object.assign(p, {
        state: e.restart > 0 ? 'restarting' : 'failed',
        restarts: p.restarts + (e.restart > 0 ? 1 : 0),
      });
      p.lastCrash = { pid: e.pid, exit, at: e.at, logFile: e.logFile };
      if (o.isUp() && !crashedAfterReady) {
        crashedAfterReady = true;
        o.onCrashAfterReady();
      }
    } else {
      p.state = 'failed';
      failure ??= e;
    }
  }
}
