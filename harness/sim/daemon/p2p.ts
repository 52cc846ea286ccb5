// The simulated daemon's peers (a daemon without --offline): it listens on its p2p port, connects to
// each --add-exclusive-node every second while it is not connected to it, and speaks the simulator's
// own protocol — one JSON message a line — instead of levin. What a peer sees is salviumd v1.1.3c's
// behaviour as established in docs/multi-node.md:
//
// - on connecting both sides say where they are (height, top block); a node that does not know the
//   other's top asks for its chain and takes its blocks (a heavier chain wins: chain/alt.ts); a node is
//   synchronized (mining allowed) once a peer it agrees with connected, or once it synced from one;
// - a block mined or received on top is relayed to the other peers at once, as is a transaction
//   accepted by send_raw_transaction (or from a peer); nothing is sent again when peers reconnect: a
//   pool transaction reaches a peer that was cut off only by relay_tx or in a block;
// - losing the last connection logs `salviumd is now disconnected from the network`.
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { decode, encode } from '../chain/codec.js';
import { height, topBlock } from '../chain/ledger.js';
import type { Block, Tx } from '../chain/types.js';
import type { Logger } from '../common/log.js';
import { acceptBlock, acceptPeerTxs } from './intake.js';
import type { DaemonContext } from './views.js';

type Message =
  | { t: 'hello'; peerId: string; height: number; top: string }
  | { t: 'get_chain'; ids: string[] }
  | { t: 'chain'; blocks: Block[] }
  | { t: 'block'; block: Block }
  | { t: 'txs'; txs: Tx[] };

export interface Peer {
  socket: Socket;
  incoming: boolean;
  /** The remote end: the peer's own port (incoming) or where we connected (outgoing). */
  host: string;
  port: number;
  connectionId: string;
  peerId: string;
  /** The peer's chain as it last said. */
  height: number;
  top: string;
  since: number;
  recv: number;
  sent: number;
  lastRecv: number;
  lastSent: number;
}

export interface P2p {
  readonly synchronized: boolean;
  /** Peers whose hello arrived (what get_connections lists), incoming first. */
  peers(): Peer[];
  relayBlock(block: Block, except?: Peer): void;
  relayTxs(txs: Tx[], except?: Peer): void;
  close(): Promise<void>;
}

export interface P2pOptions {
  bindIp: string;
  bindPort: number;
  /** host:port of each exclusive node. */
  exclusive: string[];
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

export async function startP2p(ctx: DaemonContext, o: P2pOptions): Promise<P2p> {
  /** Peers that said hello (listed and sent to); `live` every open connection. */
  const peers = new Set<Peer>();
  const live = new Set<Peer>();
  const pending = new Set<string>();
  const peerId = randomBytes(8).toString('hex');
  let synchronized = false;
  let closed = false;

  const send = (p: Peer, m: Message): void => {
    if (p.socket.destroyed) return;
    const line = `${encode(m)}\n`;
    p.sent += line.length;
    p.lastSent = Date.now();
    p.socket.write(line);
  };
  const becomeSynchronized = (): void => {
    if (synchronized) return;
    synchronized = true;
    o.log.log('I', SYNC_BOX, { colour: '\x1b[1;33m' });
  };
  const hello = (): Message => {
    const l = ctx.ledger;
    return { t: 'hello', peerId, height: height(l), top: topBlock(l).hash };
  };
  const knows = (hash: string, h: number): boolean =>
    ctx.ledger.blocks[h - 1]?.hash === hash || ctx.state.alt.has(hash);

  const onHello = (p: Peer, m: Extract<Message, { t: 'hello' }>): void => {
    Object.assign(p, { peerId: m.peerId, height: m.height, top: m.top });
    const ours = height(ctx.ledger);
    if (knows(m.top, m.height)) {
      if (m.height >= ours) becomeSynchronized();
      return;
    }
    if (m.height > ours) {
      const behind = m.height - ours;
      o.log.log(
        'I',
        `[${p.host}:${p.port} ${p.incoming ? 'INC' : 'OUT'}] Sync data returned a new top block candidate: ${ours} -> ${m.height} [Your node is ${behind} blocks (${behind * 2}.0 minutes) behind] \nSYNCHRONIZATION started`,
      );
    }
    send(p, { t: 'get_chain', ids: locator(ctx) });
  };

  const onChain = (p: Peer, blocks: Block[]): void => {
    const before = topBlock(ctx.ledger).hash;
    for (const b of blocks) acceptBlock(ctx, b, { relay: false });
    const l = ctx.ledger;
    if (topBlock(l).hash !== before) o.log.log('I', `Synced ${height(l)}/${Math.max(height(l), p.height)}`);
    if (height(l) >= p.height) becomeSynchronized();
  };

  const handle = (p: Peer, m: Message): void => {
    if (m.t === 'hello') onHello(p, m);
    else if (m.t === 'get_chain') {
      const l = ctx.ledger;
      const from = m.ids.map((id) => l.blocks.findIndex((b) => b.hash === id)).find((i) => i >= 0) ?? 0;
      send(p, { t: 'chain', blocks: l.blocks.slice(from + 1, from + 1 + 5000) });
    } else if (m.t === 'chain') onChain(p, m.blocks);
    else if (m.t === 'block') {
      p.height = Math.max(p.height, m.block.index + 1);
      const r = acceptBlock(ctx, m.block, { relay: true, except: p });
      if (r.kind === 'orphan') send(p, { t: 'get_chain', ids: locator(ctx) });
    } else if (m.t === 'txs') acceptPeerTxs(ctx, m.txs, p);
  };

  const attach = (socket: Socket, incoming: boolean, host: string, port: number): Peer => {
    const p: Peer = {
      socket,
      incoming,
      host,
      port,
      connectionId: randomBytes(16).toString('hex'),
      peerId: '',
      height: 0,
      top: '',
      since: Date.now(),
      recv: 0,
      sent: 0,
      lastRecv: Date.now(),
      lastSent: Date.now(),
    };
    socket.setNoDelay(true);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
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
          socket.destroy();
          return;
        }
        if (m.t === 'hello') peers.add(p);
        handle(p, m);
      }
    });
    const gone = (): void => {
      live.delete(p);
      const was = peers.delete(p);
      if (was && peers.size === 0 && !closed) o.log.log('W', 'salviumd is now disconnected from the network');
    };
    socket.on('close', gone);
    socket.on('error', () => socket.destroy());
    live.add(p);
    send(p, hello());
    return p;
  };

  const server: Server = createServer((s) => attach(s, true, s.remoteAddress ?? '127.0.0.1', s.remotePort ?? 0));
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(o.bindPort, o.bindIp, () => ok()));

  /** Connect to each exclusive node we have no connection to (nor one under way). */
  const dial = (): void => {
    for (const addr of o.exclusive) {
      const [host, portText] = [addr.slice(0, addr.lastIndexOf(':')), addr.slice(addr.lastIndexOf(':') + 1)];
      const port = Number(portText);
      const connected = [...live].some((p) => !p.incoming && p.port === port && !p.socket.destroyed);
      if (connected || pending.has(addr)) continue;
      pending.add(addr);
      const s = connect({ host, port });
      s.once('connect', () => {
        pending.delete(addr);
        attach(s, false, host, port);
      });
      s.once('error', () => {
        pending.delete(addr);
        s.destroy();
      });
    }
  };
  dial();
  const timer = setInterval(dial, 1000);
  timer.unref();

  return {
    get synchronized() {
      return synchronized;
    },
    peers: () => [...peers].sort((a, b) => Number(b.incoming) - Number(a.incoming)),
    relayBlock(block, except) {
      for (const p of peers) if (p !== except) send(p, { t: 'block', block });
    },
    relayTxs(txs, except) {
      if (txs.length) for (const p of peers) if (p !== except) send(p, { t: 'txs', txs });
    },
    async close() {
      closed = true;
      clearInterval(timer);
      for (const p of live) p.socket.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
