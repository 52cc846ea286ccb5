// `--ports standard`: the daemon on the programs' own testnet ports (Salvium: P2P 29080, RPC 29081,
// ZMQ 29082) and the main wallet's RPC on the port the public guides use (29088), so a guide's curl
// lines run as written. Every one of them is checked before anything starts: a port that is taken is
// named with what holds it (pid and program, where /proc tells), and the testnet does not start.
import { PortsTakenError } from '../../process/port-holder.js';
import { assertPortsFree } from '../../process/ports.js';
import type { BackendSpec } from '../../coin/backends.js';

export const PORT_CHOICES = ['random', 'standard'] as const;
export type PortChoice = (typeof PORT_CHOICES)[number];

export interface FixedPorts {
  daemon: { rpc: number; zmq: number; p2p: number };
  walletRpc: number;
}

/** The ports to bind, or undefined for free ones (`random`); a backend without standard ports is an error. */
export function fixedPorts(spec: BackendSpec, choice: PortChoice | undefined): FixedPorts | undefined {
  if (choice === undefined || choice === 'random') return undefined;
  if (choice !== 'standard') throw new Error(`ports must be one of ${PORT_CHOICES.join(', ')}, got ${String(choice)}`);
  const s = spec.standardPorts;
  if (!s) throw new Error(`the ${spec.name} backend has no standard ports: use --ports random`);
  return { daemon: { rpc: s.rpc, zmq: s.zmq, p2p: s.p2p }, walletRpc: s.walletRpc };
}

/** Every fixed port free now, or an error naming each one that is taken and what holds it. */
export async function checkFixedPorts(spec: BackendSpec, p: FixedPorts): Promise<void> {
  const daemon = spec.binaries.daemon;
  try {
    await assertPortsFree([
      { port: p.daemon.rpc, what: `${daemon}'s RPC` },
      { port: p.daemon.zmq, what: `${daemon}'s ZMQ` },
      { port: p.daemon.p2p, what: `${daemon}'s P2P` },
      { port: p.walletRpc, what: `the main wallet's ${spec.binaries.walletRpc}` },
    ]);
  } catch (err) {
    if (!(err instanceof PortsTakenError)) throw err;
    const runs = [...new Set(err.taken.flatMap((t) => (t.holder?.runId ? [t.holder.runId] : [])))];
    const stop = runs.length
      ? `\`saltnet down --run ${runs[0]}\` stops that testnet${runs.length > 1 ? ` (and --run ${runs.slice(1).join(', ')})` : ''}`
      : `stop what holds ${err.taken.length === 1 ? 'it' : 'them'}`;
    throw new PortsTakenError(err.taken, {
      prefix: '--ports standard: ',
      suffix: `\nnothing was started: ${stop}, or start with --ports random`,
    });
  }
}

/** `--ports standard`: the ports, each checked free now (or the error naming what holds them); undefined: free ones. */
export async function claimFixedPorts(
  spec: BackendSpec,
  choice: PortChoice | undefined,
): Promise<FixedPorts | undefined> {
  const ports = fixedPorts(spec, choice);
  if (ports) await checkFixedPorts(spec, ports);
  return ports;
}
