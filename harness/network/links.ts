// The links of a testnet of several nodes: every pair of nodes is joined both ways, each way through
// a proxy of its own (proxy.ts) — node a connects to a's proxy for b, which forwards to b's p2p port,
// and the same from b to a. A link's state applies to both of its proxies. Partition and heal set
// the links; the groups of nodes that still reach each other follow from the open ones.
import { LinkProxy, type LinkState } from './proxy.js';
import { allLinks, components, cutLinks, linkName, nodeIndex, nodeName, type Link } from './topology.js';

export interface LinkInfo {
  /** `n0-n1` */
  link: string;
  nodes: [string, string];
  mode: LinkState['mode'];
  delayMs: number;
  /** Connections through it now (both ways). */
  connections: number;
}

export class LinkSet {
  private constructor(
    readonly count: number,
    /** proxies[a][b]: a's way to b (undefined on the diagonal). */
    private readonly proxies: (LinkProxy | undefined)[][],
  ) {}

  /**
   * Proxies for every ordered pair of `count` nodes; `p2pPort(i)` is where node i listens now (undefined before it
   * started). `ports`: the proxies' ports of an earlier set, kept (a node's peers are on its command line).
   */
  static async start(count: number, p2pPort: (i: number) => number | undefined): Promise<LinkSet> {
    const proxies: (LinkProxy | undefined)[][] = [];
    try {
      for (let a = 0; a < count; a++) {
        proxies.push([]);
        for (let b = 0; b < count; b++)
          proxies[a]!.push(a === b ? undefined : await LinkProxy.start({ target: () => p2pPort(b) }));
      }
    } catch (err) {
      for (const p of proxies.flat()) await p?.close();
      throw err;
    }
    return new LinkSet(count, proxies);
  }

  /** Where node `i` connects to reach each other node (`--add-exclusive-node` values), in node order. */
  peersOf(i: number): string[] {
    return this.proxies[i]!.flatMap((p) => (p ? [`127.0.0.1:${p.port}`] : []));
  }

  private both([a, b]: Link): LinkProxy[] {
    return [this.proxies[a]![b]!, this.proxies[b]![a]!];
  }

  /** Change one link (both ways). */
  set(link: Link, change: Partial<LinkState>): void {
    for (const p of this.both(link)) p.set(change);
  }

  /** Change the link between two nodes by name. */
  setByName(a: string, b: string, change: Partial<LinkState>): void {
    const [i, j] = [nodeIndex(a, this.count), nodeIndex(b, this.count)];
    if (i === j) throw new Error(`a link joins two nodes; ${a} and ${b} are the same node`);
    this.set(i < j ? [i, j] : [j, i], change);
  }

  /** Cut the links between the groups, open the links within them (delays are kept). */
  partition(groups: readonly (readonly string[])[]): void {
    const cut = new Set(cutLinks(groups, this.count).map(linkName));
    for (const l of allLinks(this.count)) this.set(l, { mode: cut.has(linkName(l)) ? 'cut' : 'open' });
  }

  /** Every link open again, without delay. */
  heal(): void {
    for (const l of allLinks(this.count)) this.set(l, { mode: 'open', delayMs: 0 });
  }

  /** Close the connections through the links within these nodes' groups and keep the links as they are. */
  reset(nodes: readonly number[]): void {
    for (const [a, b] of allLinks(this.count))
      if (nodes.includes(a) && nodes.includes(b)) this.both([a, b]).forEach((p) => p.closeAll());
  }

  stateOf(link: Link): LinkState {
    return this.proxies[link[0]]![link[1]]!.state;
  }

  /** The links that carry blocks now (open; a delayed link is open). */
  openLinks(): Link[] {
    return allLinks(this.count).filter((l) => this.stateOf(l).mode === 'open');
  }

  /** The groups of nodes that reach each other now, by index (one group when nothing is cut). */
  groups(): number[][] {
    return components(this.count, this.openLinks());
  }

  /** The group of node `i` now. */
  groupOf(i: number): number[] {
    return this.groups().find((g) => g.includes(i))!;
  }

  info(): LinkInfo[] {
    return allLinks(this.count).map((l) => {
      const s = this.stateOf(l);
      return {
        link: linkName(l),
        nodes: [nodeName(l[0]), nodeName(l[1])],
        mode: s.mode,
        delayMs: s.delayMs,
        connections: this.both(l).reduce((n, p) => n + p.connections, 0),
      };
    });
  }

  async close(): Promise<void> {
    for (const p of this.proxies.flat()) await p?.close();
  }
}
