// A peer and the p2p side of a daemon, as the rest of the simulated daemon sees them (the RPCs that list
// peers, the intake of blocks and transactions that relays them on); p2p.ts speaks the protocol.
import type { Socket } from 'node:net';
import type { Block, Tx } from '../chain/types.js';

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
  /** The top block this node last told the peer of (its hello, or a block relayed to it). */
  told: string;
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
