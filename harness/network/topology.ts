// The nodes of a testnet and the links between them: node names (n0, n1, …), every pair of nodes
// joined by one link, and partitions — groups of nodes that keep their links among themselves and
// lose every link to the other groups. Pure: the proxies that carry the links are proxy.ts's.
import { clip } from '../common/describe.js';
import { suggest } from '../common/suggest.js';

/** The name of node `i` (0-based): n0, n1, … */
export const nodeName = (i: number): string => `n${i}`;

export const NODE_NAME = /^n(0|[1-9]\d*)$/;

/** The names of a testnet of `count` nodes. */
export const nodeNames = (count: number): string[] => Array.from({ length: count }, (_, i) => nodeName(i));

/** A link: two node indexes, the lower first. */
export type Link = readonly [number, number];

/** Every link of a full mesh of `count` nodes. */
export function allLinks(count: number): Link[] {
  const out: Link[] = [];
  for (let a = 0; a < count; a++) for (let b = a + 1; b < count; b++) out.push([a, b]);
  return out;
}

export const linkName = ([a, b]: Link): string => `${nodeName(a)}-${nodeName(b)}`;

/** Why `name` is no node of a testnet of `count` nodes (with the nearest name), or undefined. */
export function unknownNode(name: string, count: number): string | undefined {
  const names = nodeNames(count);
  if (names.includes(name)) return undefined;
  const near = suggest(name, names);
  const has = count === 1 ? 'one node, n0' : `${count} nodes, ${names[0]} to ${names[count - 1]}`;
  return `no node named ${clip(name)}: this testnet has ${has}${near ? ` (did you mean ${near}?)` : ''}`;
}

/** The index of node `name`; a clear error for a name that is none. */
export function nodeIndex(name: string, count: number): number {
  const why = unknownNode(name, count);
  if (why) throw new Error(why);
  return Number(name.slice(1));
}

/**
 * What is wrong with a partition of a testnet of `count` nodes: an unknown node, a node in two groups
 * (or twice in one), a node in none, an empty group. Each problem with the index of its group.
 */
export function partitionProblems(groups: readonly (readonly string[])[], count: number): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  groups.forEach((g, gi) => {
    if (g.length === 0) problems.push(`group ${gi} is empty`);
    for (const name of g) {
      const why = unknownNode(name, count);
      if (why) problems.push(`group ${gi}: ${why}`);
      else if (seen.has(name))
        problems.push(
          seen.get(name) === gi
            ? `group ${gi} names ${name} twice`
            : `${name} is in two groups (${seen.get(name)} and ${gi}): a node is in one group`,
        );
      else seen.set(name, gi);
    }
  });
  const missing = nodeNames(count).filter((n) => !seen.has(n));
  if (missing.length && problems.length === 0)
    problems.push(
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} in no group: name every node once (a node alone is a group of its own, e.g. [${missing[0]}])`,
    );
  return problems;
}

/** The group index of each node under a (valid) partition. */
export function groupOf(groups: readonly (readonly string[])[], count: number): number[] {
  const out = new Array<number>(count).fill(-1);
  groups.forEach((g, gi) => g.forEach((name) => (out[nodeIndex(name, count)] = gi)));
  return out;
}

/** The links a (valid) partition cuts: those between nodes of different groups. */
export function cutLinks(groups: readonly (readonly string[])[], count: number): Link[] {
  const problems = partitionProblems(groups, count);
  if (problems.length) throw new Error(`bad partition: ${problems.join('; ')}`);
  const g = groupOf(groups, count);
  return allLinks(count).filter(([a, b]) => g[a] !== g[b]);
}

/** The groups of nodes that reach each other over the open links (connected components), by index. */
export function components(count: number, open: readonly Link[]): number[][] {
  const parent = Array.from({ length: count }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const [a, b] of open) parent[find(a)] = find(b);
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < count; i++) byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), i]);
  return [...byRoot.values()];
}
