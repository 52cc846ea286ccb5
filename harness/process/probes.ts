// Probes of whether a started program answers: over HTTP (its RPC) or TCP, polled with wait-on.
// wait-on has no way to be cancelled: it is run in slices of at most SLICE_MS, and a probe whose
// wait has ended (ready, exited or timed out) stops polling at the end of its slice.

/** A readiness probe: a named check of whether a program answers yet. */
export interface Probe {
  kind: 'probe';
  /** Used in messages ("waited for <name>") and in Ready.by. */
  name: string;
  /**
   * Resolves true once available; false or an exception mean "not yet": it is called again `everyMs` (default 200)
   * later, until the wait ends and `signal` aborts. It may poll itself (the wait-on probes do, resolving only once
   * available or aborted). `note` records what the last attempt saw, for the timeout's message.
   */
  check: (signal: AbortSignal, note: (what: string) => void) => Promise<boolean>;
  everyMs?: number;
}

/**
 * The poll interval for a program started on this machine and reached over loopback: a refused connection costs next
 * to nothing, and every interval waited after the program answers is added to a testnet's start.
 */
export const LOOPBACK_PROBE_MS = 20;

/** The longest one wait-on run lasts: how long a probe may poll on after its wait has ended. */
const SLICE_MS = 1000;

interface ResourceOptions {
  everyMs: number;
  requestTimeoutMs: number;
  validateStatus?: (status: number) => boolean;
}

/** Poll `resource` (a wait-on resource: http:, http-get:, tcp:) until it is available (true) or `signal` aborts. */
async function pollResource(resource: string, o: ResourceOptions, signal: AbortSignal): Promise<boolean> {
  // Loaded on the first probe, not with the module: wait-on (with rxjs, joi and axios) takes about 0.3 s of CPU to
  // load, a fifth to a third of a saltnet start, and most commands never probe.
  const { default: waitOn } = await import('wait-on');
  while (!signal.aborted) {
    try {
      await waitOn({
        resources: [resource],
        interval: Math.max(10, Math.round(o.everyMs)),
        timeout: SLICE_MS,
        httpTimeout: Math.round(o.requestTimeoutMs),
        tcpTimeout: Math.round(o.requestTimeoutMs),
        // wait-on waits that long for a resource to stay available: a program's RPC answering once is enough.
        window: 0,
        followRedirect: false,
        proxy: false,
        ...(o.validateStatus ? { validateStatus: o.validateStatus } : {}),
      });
      return true;
    } catch (err) {
      // wait-on's own timeout (the slice is over): poll on unless the wait has ended. Anything else (a malformed
      // resource) goes to the caller, which notes it and tries again later.
      if (!(err instanceof Error && err.message.startsWith('Timed out waiting for'))) throw err;
    }
  }
  return false;
}

export interface HttpProbeOptions {
  name?: string;
  /** HEAD or GET (default GET); epee answers both alike. */
  method?: 'GET' | 'HEAD';
  /** Which status means the RPC answers (default: 2xx). */
  answers?: (status: number) => boolean;
  /** Poll interval (default 200 ms). */
  everyMs?: number;
  /** Per request (default 2000, not scaled: a request that hangs is tried again). */
  requestTimeoutMs?: number;
}

/** A probe that succeeds once `url` answers with a status `answers` accepts (e.g. a daemon's /get_info, 200). */
export function httpProbe(url: string, opts: HttpProbeOptions = {}): Probe {
  const method = opts.method ?? 'GET';
  const answers = opts.answers ?? ((s: number) => s >= 200 && s < 300);
  const everyMs = opts.everyMs ?? 200;
  const resource = method === 'GET' ? url.replace(/^http:/, 'http-get:') : url;
  return {
    kind: 'probe',
    name: opts.name ?? `http ${method} ${url}`,
    everyMs,
    check: (signal, note) => {
      note('no answer');
      const validateStatus = (status: number): boolean => {
        const ok = answers(status);
        if (!ok) note(`HTTP ${status}`);
        return ok;
      };
      return pollResource(
        resource,
        { everyMs, requestTimeoutMs: opts.requestTimeoutMs ?? 2000, validateStatus },
        signal,
      );
    },
  };
}

/** A probe that succeeds once something accepts TCP connections on host:port. */
export function tcpProbe(port: number, host = '127.0.0.1', opts: { name?: string; everyMs?: number } = {}): Probe {
  const everyMs = opts.everyMs ?? 200;
  return {
    kind: 'probe',
    name: opts.name ?? `tcp ${host}:${port}`,
    everyMs,
    check: (signal, note) => {
      note('no connection');
      return pollResource(`tcp:${host}:${port}`, { everyMs, requestTimeoutMs: 2000 }, signal);
    },
  };
}
