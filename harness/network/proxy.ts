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
}

/** Forward `from` to `to` under the link's state now: dropped, delayed (in order) or passed at once. */
function forward(from: Socket, to: Socket, state: () => LinkState): void {
  let releaseAt = 0;
  from.on('data', (chunk: Buffer) => {
    const s = state();
    if (s.mode !== 'open') return;
    if (s.delayMs <= 0 && releaseAt <= Date.now()) {
      to.write(chunk);
      return;
    }
    // Later chunks never overtake earlier ones: each waits for its own delay and for the one before it.
    releaseAt = Math.max(Date.now() + s.delayMs, releaseAt);
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, releaseAt - Date.now()).unref();
  });
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

  /** Change the link: cutting closes what passes through it; leaving `drop` closes what it broke. */
  set(change: Partial<LinkState>): void {
    const before = this.current.mode;
    this.current = { ...this.current, ...change };
    const after = this.current.mode;
    if (after === 'cut' || (before === 'drop' && after !== 'drop')) this.closeAll();
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
    const pair: Pair = { client, upstream };
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
    forward(client, upstream, () => this.current);
    forward(upstream, client, () => this.current);
  }
}
