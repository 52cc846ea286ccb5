// Every node of a testnet starts from the same chain state: n0's data dir, built or restored first, copied to the
// others (without the files that belong to one node) before they start, so they agree from the first block.
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { nodeDataDir } from '../programs/daemon.js';

/** Files of a data dir that are not the chain: the lock, logs, the peer list of another node's port. */
const notChain = (path: string): boolean => /(^|\/)(lock\.mdb|p2pstate\.bin)$|\.log(-\d.*)?$/.test(path);

const nonEmpty = (dir: string): boolean => existsSync(dir) && readdirSync(dir).length > 0;

/** Give every node but n0 a copy of n0's (stopped) data dir where it has none yet. */
export function copyChainToNodes(workdir: string, count: number): number[] {
  const copied: number[] = [];
  for (let i = 1; i < count; i++) {
    const dir = nodeDataDir(workdir, i);
    if (nonEmpty(dir)) continue;
    cpSync(nodeDataDir(workdir, 0), dir, { recursive: true, filter: (src) => !notChain(src) });
    copied.push(i);
  }
  return copied;
}
