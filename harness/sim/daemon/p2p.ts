// The simulated daemon's peers (a daemon without --offline): it listens on its p2p port, connects to
// each peer it is given (dialTargets) every second while it is not connected to it, and speaks the
// simulator's own protocol — one JSON message a line — instead of levin. What a peer sees is salviumd v1.1.3c's
// behaviour as established in docs/multi-node.md:
//
// - on connecting both sides say where they are (height, top block); a node that does not know the
//   other's top asks for its chain and takes its blocks (a heavier chain wins: chain/alt.ts); a node is
//   synchronized (mining allowed) once a peer it agrees with connected, or once it synced from one;
// - a block mined or received on top is relayed to the other peers at once, as is a transaction
//   accepted by send_raw_transaction (or from a peer); nothing is sent again when peers reconnect: a
//   pool transaction reaches a peer that was cut off only by relay_tx or in a block;
// - a hello is answered with a fresh one when the node's top moved since it last told that peer (as a handshake's
//   response carries the responder's state when the request arrives): blocks found while two hellos crossed a slow
//   link reach the peer all the same, so a node that fell behind catches up once its link carries messages again;
// - losing the last connection logs `salviumd is now disconnected from the network`.
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { decode, encode } from '../chain/codec.js';
import { TESTNET_PORTS } from '../chain/constants.js';
import { height, topBlock } from '../chain/ledger.js';
import type { Block, Tx } from '../chain/types.js';
import type { Logger } from '../common/log.js';
import { acceptBlock, acceptPeerTxs } from './intake.js';
import type { P2p, Peer } from './p2p-types.js';
import type { DaemonContext } from './views.js';

type Message =
  | { t: 'hello'; peerId: string; height: number; top: string }
  | { t: 'get_chain'; ids: string[] }
  | { t: 'chain'; blocks: Block[] }
  | { t: 'block'; block: Block }
  | { t: 'txs'; txs: Tx[] };

export interface P2pOptions {
  bindIp: string;
  bindPort: number;
  /** host:port (or host: the testnet's p2p port) of each peer it keeps a connection to (dialTargets). */
  dial: string[];
  log: Logger;
}

/** The hashes a node offers to find where its chain and a peer's part: recent blocks, newest first, then genesis. */
function locator(ctx: DaemonContext): string[] {
  const b = ctx.ledger.blocks;
  const ids = b
    .slice(-64)
    .map((x) => x.hash)
    .reverse();
  if (b.length > 64) ids.push(b[0]!.hash);
  return ids;
}

const SYNC_BOX = [
  '',
  '*'.repeat(70),
  'You are now synchronized with the network. You may now start salvium-wallet-cli.',
  '',
  'Use the "help" command to see the list of available commands.',
  '*'.repeat(70),
].join('\n');

/** The node's side of its peers: see the header. */
class P2pNode implements P2p {
  /** Peers that said hello (listed and sent to); `live` every open connection. */
  private readonly hellos = new Set<Peer>();
  private readonly live = new Set<Peer>();
  private readonly pending = new Set<string>();
  private readonly peerId = randomBytes(8).toString('hex');
  private synced = false;
  private closed = false;
  private readonly server: Server;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ctx: DaemonContext,
    private readonly o: P2pOptions,
  ) {
    this.server = createServer((s) => this.attach(s, true, s.remoteAddress ?? '127.0.0.1', s.remotePort ?? 0));
    this.timer = setInterval(() => this.dial(), 1000);
    this.timer.unref();
  }

  async listen(): Promise<void> {
    await new Promise<void>((ok, fail) => this.server.once('error', fail).listen(this.o.bindPort, this.o.bindIp, ok));
    this.dial();
  }

  get synchronized(): boolean {
    return this.synced;
  }

  peers(): Peer[] {
    return [...this.hellos].sort((a, b) => Number(b.incoming) - Number(a.incoming));
  }

  relayBlock(block: Block, except?: Peer): void {
    for (const p of this.hellos) if (p !== except) this.send(p, { t: 'block', block });
  }

  relayTxs(txs: Tx[], except?: Peer): void {
    if (txs.length) for (const p of this.hellos) if (p !== except) this.send(p, { t: 'txs', txs });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const p of this.live) p.socket.destroy();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  private send(p: Peer, m: Message): void {
    if (p.socket.destroyed) return;
    if (m.t === 'hello') p.told = m.top;
    else if (m.t === 'block' && m.block.hash === topBlock(this.ctx.ledger).hash) p.told = m.block.hash;
    const line = `${encode(m)}\n`;
    p.sent += line.length;
    p.lastSent = Date.now();
    p.socket.write(line);
  }

  private becomeSynchronized(): void {
    if (this.synced) return;
    this.synced = true;
    this.o.log.log('I', SYNC_BOX, { colour: '\x1b[1;33m' });
  }

  private hello(): Message {
    const l = this.ctx.ledger;
    return { t: 'hello', peerId: this.peerId, height: height(l), top: topBlock(l).hash };
  }

  private knows(hash: string, h: number): boolean {
    return this.ctx.ledger.blocks[h - 1]?.hash === hash || this.ctx.state.alt.has(hash);
  }

  private onHello(p: Peer, m: Extract<Message, { t: 'hello' }>): void {
    Object.assign(p, { peerId: m.peerId, height: m.height, top: m.top });
    // The peer's hello answers ours, as a handshake's response does: where this node stands now, when that changed
    // since it said so (blocks found while the hellos crossed a slow link were relayed to no one: the peer had not
    // said hello yet).
    if (p.told !== topBlock(this.ctx.ledger).hash) this.send(p, this.hello());
    const ours = height(this.ctx.ledger);
    if (this.knows(m.top, m.height)) {
      if (m.height >= ours) this.becomeSynchronized();
      return;
    }
    if (m.height > ours) {
      const behind = m.height - ours;
      this.o.log.log(
        'I',
        `[${p.host}:${p.port} ${p.incoming ? 'INC' : 'OUT'}] Sync data returned a new top block candidate: ${ours} -> ${m.height} [Your node is ${behind} blocks (${behind * 2}.0 minutes) behind] \nSYNCHRONIZATION started`,
      );
    }
    this.send(p, { t: 'get_chain', ids: locator(this.ctx) });
  }

  private onChain(p: Peer, blocks: Block[]): void {
    const before = topBlock(this.ctx.ledger).hash;
    for (const b of blocks) acceptBlock(this.ctx, b, { relay: false });
    const l = this.ctx.ledger;
    const moved = topBlock(l).hash !== before;
    if (moved) this.o.log.log('I', `Synced ${height(l)}/${Math.max(height(l), p.height)}`);
    if (height(l) >= p.height) this.becomeSynchronized();
    // A chain answer holds at most 5000 blocks: ask for the rest while it brings this node on.
    else if (moved) this.send(p, { t: 'get_chain', ids: locator(this.ctx) });
  }

  private handle(p: Peer, m: Message): void {
    if (m.t === 'hello') this.onHello(p, m);
    else if (m.t === 'get_chain') {
      const l = this.ctx.ledger;
      const from = m.ids.map((id) => l.blocks.findIndex((b) => b.hash === id)).find((i) => i >= 0) ?? 0;
      this.send(p, { t: 'chain', blocks: l.blocks.slice(from + 1, from + 1 + 5000) });
    } else if (m.t === 'chain') this.onChain(p, m.blocks);
    else if (m.t === 'block') {
      p.height = Math.max(p.height, m.block.index + 1);
      const r = acceptBlock(this.ctx, m.block, { relay: true, except: p });
      if (r.kind === 'orphan') this.send(p, { t: 'get_chain', ids: locator(this.ctx) });
    } else if (m.t === 'txs') acceptPeerTxs(this.ctx, m.txs, p);
  }

  /** Read the peer's lines: one message each (anything else ends the connection). */
  private read(p: Peer): void {
    let buffered = '';
    p.socket.on('data', (chunk: Buffer) => {
      p.recv += chunk.length;
      p.lastRecv = Date.now();
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let m: Message;
        try {
          m = decode<Message>(line);
        } catch {
          p.socket.destroy();
          return;
        }
        if (m.t === 'hello') this.hellos.add(p);
        this.handle(p, m);
      }
    });
  }

  private attach(socket: Socket, incoming: boolean, host: string, port: number): Peer {
    const now = Date.now();
    const p: Peer = {
      ...{
        socket,
        incoming,
        host,
        port,
        connectionId: randomBytes(16).toString('hex'),
        peerId: '',
        height: 0,
        top: '',
        told: '',
      },
      ...{ since: now, recv: 0, sent: 0, lastRecv: now, lastSent: now },
    };
    socket.setNoDelay(true);
    this.read(p);
    socket.on('close', () => {
      this.live.delete(p);
      const was = this.hellos.delete(p);
      if (was && this.hellos.size === 0 && !this.closed)
        this.o.log.log('W', 'salviumd is now disconnected from the network');
    });
    socket.on('error', () => socket.destroy());
    this.live.add(p);
    this.send(p, this.hello());
    return p;
  }

  /** Connect to each peer to dial that we have no connection to (nor one under way). */
  private dial(): void {
    for (const addr of this.o.dial) {
      const { host, port } = hostPort(addr);
      const connected = [...this.live].some((p) => !p.incoming && p.port === port && !p.socket.destroyed);
      if (connected || this.pending.has(addr)) continue;
      this.pending.add(addr);
      const s = connect({ host, port });
      s.once('connect', () => {
        this.pending.delete(addr);
        this.attach(s, false, host, port);
      });
      s.once('error', () => {
        this.pending.delete(addr);
        s.destroy();
      });
    }
  }
}

/**
 * The peers a node dials, as salviumd's connections_maker (src/p2p/net_node.inl) does: only the `--add-exclusive-node`s
 * when there are any (the others are then ignored); else each `--add-priority-node` and each `--add-peer` (put on its
 * white peer list, which it connects to). `--seed-node`s only hand out peer addresses, which the simulator's protocol
 * has none of: they are not dialled. Each address once, in that order.
 */
export function dialTargets(o: { exclusive: string[]; priority: string[]; peers: string[] }): string[] {
  return [...new Set(o.exclusive.length ? o.exclusive : [...o.priority, ...o.peers])];
}

/** `host:port`, `[v6]:port` or a bare host (the testnet's p2p port, as salviumd's default). */
function hostPort(addr: string): { host: string; port: number } {
  const m = /^(?:\[(.*)\]|([^:]*)):(\d+)$/.exec(addr);
  if (!m) return { host: addr.replace(/^\[(.*)\]$/, '$1'), port: TESTNET_PORTS.p2p };
  return { host: m[1] ?? m[2]!, port: Number(m[3]) };
}

export async function startP2p(ctx: DaemonContext, o: P2pOptions): Promise<P2p> {
  const node = new P2pNode(ctx, o);
  await node.listen();
  return node;
}
