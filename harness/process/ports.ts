// Free loopback ports for the programs of a testnet. A port found free can be taken by someone
// else before our program binds it: withFreshPorts() retries the whole start with new ports when
// that race is lost.
import { createServer, type Server } from 'node:net';
import getPort from 'get-port';
import pRetry from 'p-retry';
import { portHolder, PortsTakenError, type PortHolder, type WantedPort } from './port-holder.js';

/** A program could not bind its ports: which were taken, and by whom when /proc says. */
export class PortTakenError extends Error {}

/** `its RPC port 4000 (taken by pid 12 (nc -l 4000))` for each of `ports` (role → port) that is not free now. */
export async function takenPorts(ports: Record<string, number>): Promise<string[]> {
  const out: string[] = [];
  for (const [role, port] of Object.entries(ports)) {
    if (await isPortFree(port).catch(() => false)) continue;
    const h = portHolder(port);
    const holder = h ? `pid ${h.pid} (${h.commandLine || h.program})` : undefined;
    out.push(`its ${role} port ${port}${holder ? ` (taken by ${holder})` : ' (taken)'}`);
  }
  return out;
}

/**
 * `n` distinct ports that are free on `host` right now, chosen by the OS (get-port). get-port does not hand out a port
 * again in this process for 15 to 30 s, so two testnets started side by side never get the same one before either
 * has bound it; a program of another process that takes it first is withFreshPorts' business.
 */
export async function freePorts(n: number, host = '127.0.0.1'): Promise<number[]> {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`freePorts: n must be a non-negative integer, got ${n}`);
  const ports: number[] = [];
  while (ports.length < n) ports.push(await getPort({ host }));
  return ports;
}

function listen(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.once('error', reject);
    s.listen({ port, host, exclusive: true }, () => resolve(s));
  });
}

function close(s: Server): Promise<void> {
  return new Promise((resolve) => s.close(() => resolve()));
}

// isPortFree stays our own: get-port({ port }) answers whether it would hand the port out, so a port it gave out a
// moment ago and nobody has bound reads as taken, and asking locks the port for 15 to 30 s.
// A question about a port must neither.
/** Whether `port` can be bound on `host` now (false when in use or not permitted). */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    await close(await listen(port, host));
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') return false;
    throw err;
  }
}

const BIND_TEXT =
  /EADDRINUSE|address already in use|address in use|failed to bind|bind failed|could not bind|cannot bind|unable to bind/i;

/**
 * Whether `err` looks like a lost port race: code EADDRINUSE anywhere in its cause chain, or a bind
 * failure in its message (a ProcessExitedError's message carries the program's last lines).
 */
export function isBindError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return typeof e === 'string' && BIND_TEXT.test(e);
    const x = e as { code?: unknown; message?: unknown; tail?: unknown; cause?: unknown };
    if (x.code === 'EADDRINUSE') return true;
    if (typeof x.message === 'string' && BIND_TEXT.test(x.message)) return true;
    if (Array.isArray(x.tail) && x.tail.some((l) => typeof l === 'string' && BIND_TEXT.test(l))) return true;
    e = x.cause;
  }
  return false;
}

/**
 * Run `fn` with `count` fresh free ports; if it fails with a bind error (see isBindError, or
 * opts.isBindError), run it again with new ports, up to `retries` (default 3) more times. `fn` must
 * clean up what it started before it throws.
 */
export async function withFreshPorts<T>(
  count: number,
  fn: (ports: number[]) => Promise<T>,
  opts: { retries?: number; isBindError?: (err: unknown) => boolean; host?: string } = {},
): Promise<T> {
  const bindError = opts.isBindError ?? isBindError;
  return pRetry(async () => fn(await freePorts(count, opts.host)), {
    retries: opts.retries ?? 3,
    minTimeout: 20,
    factor: 2,
    randomize: true,
    shouldRetry: ({ error }) => bindError(error),
  });
}

/** Throw a PortsTakenError naming every one of `ports` that cannot be bound on `host` now, and what holds it. */
export async function assertPortsFree(ports: WantedPort[], host = '127.0.0.1'): Promise<void> {
  const taken: { port: WantedPort; holder?: PortHolder }[] = [];
  for (const p of ports) {
    if (await isPortFree(p.port, host)) continue;
    const holder = portHolder(p.port);
    taken.push({ port: p, ...(holder ? { holder } : {}) });
  }
  if (taken.length) throw new PortsTakenError(taken);
}
