// The last lines of each program's log worth reading under a failed scenario: what the programs
// said around the failure, not the miner's `Found block` lines, the daemon's banner or the wallet
// CLI that restored a wallet before the scenario started — and never a key.
import type { ManagedProcess } from '../process/managed.js';

/** Lines that say nothing about a failure. */
const NOISE = [
  /\bFound block <[0-9a-f]+> at height\b/,
  /\bMiner thread (?:was )?(?:started|stopped)\b/,
  /\bmining (?:started|stopped|has stopped)\b/i,
  /^(?:[\d-]+ [\d:.]+\s+\w\s*)?\**\s*$/,
  /The daemon is running offline and will not attempt to sync|set_log <level\|categories>|where <level> is between 0|Use the "help" command|Use "help <command>"/,
];

/** A key printed by a wallet program (`View key: …`, `Spend key: …`, `secret …`). */
const KEY = /\b((?:view|spend|secret)[ _]?key\s*[:=]\s*)[0-9a-f]{64}\b/gi;

export function meaningfulLines(lines: readonly string[], n: number): string[] {
  return lines
    .filter((l) => !NOISE.some((re) => re.test(l)))
    .map((l) => l.replace(KEY, '$1***'))
    .slice(-n);
}

/** The tails of the programs that serve the scenario (the wallet CLIs that built the state are left out). */
export function logTails(processes: Iterable<Pick<ManagedProcess, 'name' | 'tail'>>, n = 12): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of processes) {
    if (p.name.startsWith('wallet-cli')) continue;
    out[p.name] = meaningfulLines(p.tail(400), n);
  }
  return out;
}
