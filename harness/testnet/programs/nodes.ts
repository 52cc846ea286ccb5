// The daemons of a testnet: one node (n0, `--offline`, as a testnet always ran) or several — each a
// Program of its own (its ports, data dir and logs), joined to every other through links saltnet owns
// (harness/network). Every node starts from the same chain state (n0's data dir, copied: node-chains.ts), so they
// agree from the first block; a partition cuts links, a heal opens them, and the heavier chain wins.
//
// Mining on a node of several reaches the other nodes of its group (a delayed link later); the blocks a
// miner finds past its target are popped from its node and from every node of the group that got them
// while the links inside the group are cut (a node that popped alone would get them back from its
// peers), then the links are open again.
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '../../common/timeouts.js';
import { LinkSet } from '../../network/links.js';
import type { LinkState } from '../../network/proxy.js';
import { allLinks, linkName, nodeName, type Link } from '../../network/topology.js';
import type { Supervisor } from '../../process/supervisor.js';
import { freePorts } from '../../process/ports.js';
import { createDaemonClient, type DaemonClient } from '../../rpc/daemon.js';
import type { Recovery } from '../../rpc/http.js';
import type { ResolvedBackend } from './binaries.js';
import { defineDaemon, type DaemonHandle, type DaemonSettings } from './daemon.js';
import { copyChainToNodes } from '../chain/node-chains.js';
import { Program, type CrashReport, type ProgramOptions } from './program.js';

/** A node's RandomX dataset (full mode): its daemon's start, and when the dataset was built (absent: building). */
export interface DatasetState {
  node: string;
  startedAt: number;
  readyAt?: number;
}

/** A node of the testnet, as the Testnet shows it. */
export interface NodeHandle {
  /** n0, n1, … */
  name: string;
  index: number;
  url: string;
  /** Its client; on a testnet of several nodes, `popBlocks` pops from every node of its group (see above). */
  client: DaemonClient;
  readonly pid: number;
  dataDir: string;
  logFile: string;
  ports: DaemonHandle['ports'];
  /** For daemon clients of your own: wait out a crash and repeat what is safe to repeat. */
  recover: Recovery;
}

export interface NodeSetOptions {
  sup: Supervisor;
  backend: ResolvedBackend;
  workdir: string;
  count: number;
  env?: Record<string, string>;
  programs: ProgramOptions;
  /** The settings of the moment (the build's while the chain state is mined, then the served ones). */
  settings: () => DaemonSettings;
  signal?: AbortSignal;
  /** `--ports standard`: the ports n0 binds (the others take free ones). */
  firstPorts?: DaemonHandle['ports'];
}

export class NodeSet {
  readonly programs: Program<DaemonHandle>[];
  private readonly rawClients: DaemonClient[] = [];
  private linkSet: LinkSet | undefined;
  /** n0's ports picked ahead of its first start (firstUrl). */
  private plannedPorts: DaemonHandle['ports'] | undefined;

  constructor(private readonly o: NodeSetOptions) {
    this.programs = Array.from(
      { length: o.count },
      (_, i) =>
        new Program(
          defineDaemon(
            o.sup,
            o.backend,
            {
              workdir: o.workdir,
              timeoutMs: 60_000,
              node: i,
              ...(o.env ? { env: o.env } : {}),
              ...(i === 0 && o.firstPorts ? { ports: o.firstPorts } : {}),
            },
            () => this.settingsOf(i),
            () => (i === 0 ? this.plannedPorts : undefined),
          ),
          o.programs,
        ),
    );
  }

  get count(): number {
    return this.o.count;
  }

  /** The links, once the nodes run as a network (undefined for one node, or while n0 builds the chain alone). */
  get links(): LinkSet | undefined {
    return this.linkSet;
  }

  /** Node i's instance, once it was started (the last one while it restarts). */
  private started(i: number): DaemonHandle | undefined {
    try {
      return this.programs[i]!.current;
    } catch {
      return undefined; // not started yet
    }
  }

  private settingsOf(i: number): DaemonSettings {
    return { ...this.o.settings(), ...(this.linkSet ? { peers: this.linkSet.peersOf(i) } : {}) };
  }

  /**
   * Make the nodes a network (from their next start on): n0's chain copied to the others, the links' proxies up. A
   * testnet of one node stays `--offline`. Call it while n0 is stopped (or not started yet).
   */
  async network(): Promise<void> {
    if (this.o.count < 2 || this.linkSet) return;
    copyChainToNodes(this.o.workdir, this.o.count);
    // A node that is down (restarting) keeps its port: the proxy's connection is refused until it is back.
    this.linkSet = await LinkSet.start(this.o.count, (i) => this.started(i)?.ports.p2p);
  }

  /**
   * Start the nodes that do not run (in parallel; only n0 before the nodes are a network), then wait until each is
   * connected to its group.
   */
  async startAll(): Promise<void> {
    const nodes = this.linkSet ? this.programs : this.programs.slice(0, 1);
    await Promise.all(nodes.map(async (p, i) => (p.status === 'running' ? undefined : this.startOne(i))));
    await this.waitConnected();
  }

  private async startOne(i: number): Promise<void> {
    const h = await this.programs[i]!.start();
    this.rawClients[i] ??= createDaemonClient(h.url, { timeoutMs: 30_000, recover: this.programs[i]!.recover });
  }

  /**
   * Pick n0's ports ahead of its first start (unless `--ports standard` fixed them), so that its address is known
   * before it answers (firstUrl): a wallet RPC can start beside it.
   */
  async planFirst(): Promise<void> {
    if (this.o.firstPorts || this.plannedPorts || this.started(0)) return;
    const [rpc, zmq, p2p] = await freePorts(3);
    this.plannedPorts = { rpc: rpc!, zmq: zmq!, p2p: p2p! };
  }

  /** n0's address: where it runs, or where it will (planFirst; another one if a port was taken meanwhile). */
  get firstUrl(): string {
    const ports = this.started(0)?.ports ?? this.o.firstPorts ?? this.plannedPorts;
    if (!ports) throw new Error('n0 has no address yet: neither started nor planned');
    return `http://127.0.0.1:${ports.rpc}`;
  }

  /** Start n0 alone (the chain state is built or restored on it first). */
  async startFirst(): Promise<DaemonHandle> {
    await this.startOne(0);
    return this.programs[0]!.current;
  }

  /** Stop every node gracefully (wallets are stopped before, by the caller); what did not stop cleanly, by name. */
  async stopAll(): Promise<string[]> {
    const out = await Promise.all(
      this.programs.map(async (p) => {
        const why = await p.stop();
        return why ? [`${p.name}: ${why}`] : [];
      }),
    );
    return out.flat();
  }

  /** Node i's own client (requests wait out a crash of it). */
  rawClient(i: number): DaemonClient {
    const c = this.rawClients[i];
    if (!c) throw new Error(`${nodeName(i)} has not been started`);
    return c;
  }

  /** Node i's client for mining: its `popBlocks` pops across its group on a network. */
  client(i: number): DaemonClient {
    const raw = this.rawClient(i);
    return this.linkSet ? { ...raw, popBlocks: (n: number) => this.popAcross(i, n) } : raw;
  }

  handle(i: number): NodeHandle {
    const p = this.programs[i]!;
    const h = p.current;
    return {
      name: nodeName(i),
      index: i,
      url: h.url,
      client: this.client(i),
      get pid() {
        return p.current.proc.pid;
      },
      dataDir: h.dataDir,
      logFile: h.logFile,
      ports: h.ports,
      recover: p.recover,
    };
  }

  /** Each full-mode node's RandomX dataset: building since its daemon started, or ready (a restart builds it again). */
  datasets(): DatasetState[] {
    return this.programs.flatMap((p, i) => {
      const w = p.current.dataset;
      if (!w) return [];
      return [{ node: nodeName(i), startedAt: w.startedAt, ...(w.readyAt ? { readyAt: w.readyAt } : {}) }];
    });
  }

  crashes(): CrashReport[] {
    return this.programs.flatMap((p) => p.crashes);
  }

  async health(): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = {};
    for (const p of this.programs) out[p.name] = await p.health();
    return out;
  }

  /** The groups of nodes that reach each other now, by index. */
  groups(): number[][] {
    return this.linkSet?.groups() ?? [Array.from({ length: this.o.count }, (_, i) => i)];
  }

  /** The open links of node i now. */
  private openLinksOf(i: number): number {
    return this.linkSet?.openLinks().filter(([a, b]) => a === i || b === i).length ?? 0;
  }

  /**
   * Why node i cannot mine now, or undefined: a daemon mines only once it has synchronized with a peer since it
   * started (before that /start_mining answers BUSY), and a node whose every link is cut or dropped gets no peer. That
   * is a node restarted while partitioned off.
   */
  async unsynchronized(i: number): Promise<string | undefined> {
    const links = this.linkSet;
    if (!links || this.openLinksOf(i) > 0) return undefined;
    const info = await this.rawClient(i)
      .getInfo()
      .catch(() => undefined);
    if (info?.['synchronized'] !== false) return undefined;
    const name = nodeName(i);
    const own = links
      .info()
      .filter((l) => l.nodes.includes(name))
      .map((l) => `${l.link} ${l.mode}`);
    return `${name} is not synchronized: it has had no peer since its daemon started, and it can reach none (${own.join(', ')}); a daemon mines only once it has synchronized with a peer. Heal first (saltnet heal), or open one of its links`;
  }

  /**
   * Wait until every running node is synchronized and connected through each of its open links (both ways): a node
   * that just started, or whose links were just opened, reconnects within a second or two.
   */
  async waitConnected(timeoutMs = scaled(120_000), signal?: AbortSignal): Promise<void> {
    if (!this.linkSet) return;
    const deadline = Date.now() + timeoutMs;
    const pending = this.programs.map((_, i) => i).filter((i) => this.programs[i]!.status === 'running');
    for (;;) {
      const infos = await Promise.all(
        pending.map((i) =>
          this.rawClient(i)
            .getInfo()
            .catch(() => undefined),
        ),
      );
      const lagging = pending.filter((i, k) => {
        const info = infos[k] as
          | { synchronized?: boolean; outgoing_connections_count?: number; incoming_connections_count?: number }
          | undefined;
        const want = this.openLinksOf(i);
        return (
          !info ||
          (want > 0 &&
            (!info.synchronized ||
              (info.outgoing_connections_count ?? 0) < want ||
              (info.incoming_connections_count ?? 0) < want))
        );
      });
      if (lagging.length === 0) return;
      for (const s of [this.o.signal, signal]) s?.throwIfAborted();
      if (Date.now() > deadline)
        throw new Error(
          `${lagging.map(nodeName).join(', ')} did not connect to ${lagging.length === 1 ? 'its' : 'their'} peers within ${Math.round(timeoutMs / 1000)} s (see ${lagging.map((i) => this.programs[i]!.current.logFile).join(', ')})${this.delayNote(pending)}`,
        );
      await sleep(100);
    }
  }

  /**
   * Wait until the nodes of each group (default: the groups now) stand on one top block. Two chains of the same
   * length do not reorganise, so their groups never agree: the error says so.
   */
  async syncTops(groups = this.groups(), timeoutMs = scaled(120_000), signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const tops = await Promise.all(
        this.programs.map((_, i) =>
          this.rawClient(i)
            .getInfo()
            .then((r) => ({ height: r.height, hash: String(r['top_block_hash'] ?? '') }))
            .catch(() => ({ height: -1, hash: '' })),
        ),
      );
      const split = groups.filter((g) => g.some((i) => tops[i]!.hash !== tops[g[0]!]!.hash || !tops[i]!.hash));
      if (split.length === 0) return;
      for (const s of [this.o.signal, signal]) s?.throwIfAborted();
      if (Date.now() > deadline) throw new Error(this.splitMessage(split, tops, timeoutMs));
      await sleep(100);
    }
  }

  private splitMessage(split: number[][], tops: { height: number; hash: string }[], timeoutMs: number): string {
    const where = split
      .map((g) =>
        g.map((i) => `${nodeName(i)} at ${tops[i]!.height} (${tops[i]!.hash.slice(0, 8) || 'no answer'})`).join(', '),
      )
      .join('; ');
    const sameHeight = split.some((g) => g.every((i) => tops[i]!.height === tops[g[0]!]!.height));
    const note = sameHeight
      ? ' — chains of the same length do not reorganise: mine a block on one side to settle it'
      : this.delayNote(split.flat());
    return `the nodes did not come to one top block within ${Math.round(timeoutMs / 1000)} s: ${where}${note}`;
  }

  /**
   * Pop node i's top `n` blocks, and those of them that reached the other nodes of its group, with the links inside the
   * group cut meanwhile: what is still on its way through a link (a delayed one) goes with the connections, and no
   * node gets a popped block back from a peer. Nothing waits for the blocks to reach the group first, so a slow link
   * never keeps the miner above its target. Returns node i's height.
   */
  async popAcross(i: number, n: number): Promise<number> {
    const links = this.linkSet;
    const group = links ? links.groupOf(i) : [i];
    if (!links || group.length === 1) return this.rawClient(i).popBlocks(n);
    const inner: [Link, LinkState][] = allLinks(this.o.count)
      .filter(([a, b]) => group.includes(a) && group.includes(b))
      .map((l) => [l, links.stateOf(l)]);
    for (const [l] of inner) links.set(l, { mode: 'cut' });
    try {
      await this.waitAlone(group);
      const top = await this.rawClient(i).height();
      const popped = new Set(await Promise.all(Array.from({ length: n }, (_, k) => this.hashAt(i, top - 1 - k))));
      const heights = await Promise.all(
        group.map((j) => (j === i ? this.rawClient(i).popBlocks(n) : this.popReached(j, popped))),
      );
      return heights[group.indexOf(i)]!;
    } finally {
      for (const [l, s] of inner) links.set(l, s);
    }
  }

  private async hashAt(i: number, height: number): Promise<string> {
    const r = await this.rawClient(i).call<{ block_header: { hash: string } }>('get_block_header_by_height', {
      height,
    });
    return r.block_header.hash;
  }

  /** Pop node j's top blocks while they are among `popped` (the ones that reached it); returns its height. */
  private async popReached(j: number, popped: ReadonlySet<string>): Promise<number> {
    const h = await this.rawClient(j).height();
    let k = 0;
    while (k < popped.size && h - 1 - k > 0 && popped.has(await this.hashAt(j, h - 1 - k))) k++;
    return k > 0 ? this.rawClient(j).popBlocks(k) : h;
  }

  /**
   * Wait (a few seconds at most) until the nodes of a group whose links were just cut say they have no connection
   * left inside it (a link to a node outside it in `drop` mode keeps its connections): a node has then read everything
   * its peers in the group sent before the cut.
   */
  private async waitAlone(group: number[], timeoutMs = scaled(5000)): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const outside = (j: number): number =>
      (this.linkSet?.info() ?? [])
        .filter((l) => {
          const [a, b] = l.nodes.map((n) => Number(n.slice(1)));
          return (a === j && !group.includes(b!)) || (b === j && !group.includes(a!));
        })
        .reduce((sum, l) => sum + l.connections, 0);
    while (Date.now() < deadline) {
      const infos = await Promise.all(
        group.map((j) =>
          this.rawClient(j)
            .getInfo()
            .catch(() => undefined),
        ),
      );
      const count = (x: Record<string, unknown> | undefined): number =>
        Number(x?.['incoming_connections_count'] ?? 0) + Number(x?.['outgoing_connections_count'] ?? 0);
      if (group.every((j, k) => count(infos[k]) <= outside(j))) return;
      await sleep(20);
    }
  }

  /**
   * The delayed links among these nodes, for the message of a wait that ran out (empty when none is delayed): `` — the
   * link n0-n1 (130000 ms) holds every message that long on its way …``.
   */
  delayNote(nodes: readonly number[]): string {
    const links = this.linkSet;
    if (!links) return '';
    const slow = allLinks(this.o.count).filter(
      ([a, b]) => nodes.includes(a) && nodes.includes(b) && links.stateOf([a, b]).delayMs > 0,
    );
    if (slow.length === 0) return '';
    const each = slow.map((l) => `${linkName(l)} (${links.stateOf(l).delayMs} ms)`).join(', ');
    const one = slow.length === 1;
    return ` — ${one ? 'the link' : 'the links'} ${each} ${one ? 'holds' : 'hold'} every message that long on its way (a delay set with setLink or \`saltnet link --delay\`): wait longer, or lower the delay`;
  }

  /** Close the clients and the links (at the end of the testnet). */
  async close(): Promise<void> {
    for (const c of this.rawClients) await c?.close().catch(() => undefined);
    await this.linkSet?.close();
  }
}
