// One link between two nodes of a testnet: a TCP proxy saltnet owns, on 127.0.0.1, between a node
// and the peer it connects to. The node is told to connect to the proxy (`--add-exclusive-node`),
// the proxy forwards to the peer's p2p port, so the same link control works for any program on
// either side (real salviumd or the simulator):
//
// - `open`: bytes pass (after `delayMs` each, in order);
// - `cut`: every connection through the link is closed at once (both sides see a reset) and new
//   ones are closed as they arrive: the nodes see a peer that went away and refuses them;
// - `drop`: connections stay up but every byte is thrown away, both ways: the nodes see a silent
//   peer until their own timeouts end the connection. Leaving `drop` closes those connections (what
//   was lost broke their stream), so the nodes start afresh.
//
// A delay holds each chunk for the link's delay as it is now, counted from the chunk's arrival: lowering the delay
// (to 0: the link is open again) releases at once what the old one still held, in order.
import { createServer, connect, type Server, type Socket } from 'node:net';

export type LinkMode = 'open' | 'cut' | 'drop';
export const LINK_MODES: readonly LinkMode[] = ['open', 'cut', 'drop'];

export interface LinkState {
  mode: LinkMode;
  /** Added to every chunk, each way (open links). */
  delayMs: number;
}

export interface ProxyOptions {
  /** Where the peer listens now (a restarted peer keeps its port; undefined: not started yet, connections close). */
  target: () => number | undefined;
  host?: string;
  /** Listen on this port (a restart of the testnet keeps its links' ports); default: any free one. */
  port?: number;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  ways: Way[];
}

/** One way of a connection: what it holds back under a delay, and how to release it when the link changes. */
interface Way {
  /** Look at the held chunks again under the link's state now (its delay may have changed). */
  recheck(): void;
}

/**
 * Forward `from` to `to` under the link's state now: dropped, delayed or passed at once. A delayed chunk is held the
 * link's delay *now* from its arrival, so a delay made shorter (or 0) releases what it held at once, in order; a
 * link put into `drop` throws away what it held.
 */
function forward(from: Socket, to: Socket, state: () => LinkState): Way {
  const held: { at: number; chunk: Buffer }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const release = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const s = state();
    if (s.mode !== 'open' || to.destroyed) {
      held.length = 0;
      return;
    }
    const now = Date.now();
    while (held.length > 0 && held[0]!.at + s.delayMs <= now) to.write(held.shift()!.chunk);
    if (held.length > 0) timer = setTimeout(release, held[0]!.at + s.delayMs - now).unref();
  };
  from.on('data', (chunk: Buffer) => {
    const s = state();
    if (s.mode !== 'open') return;
    // Later chunks never overtake earlier ones.
    if (s.delayMs <= 0 && held.length === 0) {
      to.write(chunk);
      return;
    }
    held.push({ at: Date.now(), chunk });
    if (held.length === 1) release();
  });
  return { recheck: release };
}

export class LinkProxy {
  private readonly pairs = new Set<Pair>();
  private current: LinkState = { mode: 'open', delayMs: 0 };

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly o: ProxyOptions,
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  /** A proxy listening on 127.0.0.1 (or `host`), open. */
  static async start(o: ProxyOptions): Promise<LinkProxy> {
    const server = createServer({ noDelay: true });
    const host = o.host ?? '127.0.0.1';
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen({ port: o.port ?? 0, host, exclusive: true }, () => ok());
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new LinkProxy(server, port, o);
  }

  get state(): LinkState {
    return { ...this.current };
  }

  /** Connections passing through now. */
  get connections(): number {
    return this.pairs.size;
  }

  /**
   * Change the link: cutting closes what passes through it; leaving `drop` closes what it broke; a new delay applies to
   * what the link holds now.
   */
  set(change: Partial<LinkState>): void {
    const before = this.current.mode;
    this.current = { ...this.current, ...change };
    const after = this.current.mode;
    if (after === 'cut' || (before === 'drop' && after !== 'drop')) this.closeAll();
    else for (const p of this.pairs) for (const w of p.ways) w.recheck();
  }

  /** Close every connection through the link now (the nodes reconnect when the link lets them). */
  closeAll(): void {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.closeAll();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  private accept(client: Socket): void {
    const port = this.o.target();
    if (this.current.mode === 'cut' || port === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect({ port, host: this.o.host ?? '127.0.0.1', noDelay: true });
    const pair: Pair = { client, upstream, ways: [] };
    this.pairs.add(pair);
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
    pair.ways.push(forward(client, upstream, () => this.current));
    pair.ways.push(forward(upstream, client, () => this.current));
  }
}
