// recordSession: a testnet (started for the session, or a running `saltnet up`) with a recording
// proxy in front of the daemon and of every wallet RPC. A session it starts gets wallets of its own,
// funded as a replay funds them (`requires.unlocked`, `wallets:`), so what a replay's wallets answer
// is what they answered here.
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { createDaemonClient } from '../rpc/daemon.js';
import { fundingBucket } from '../scenario/needs.js';
import { backendSpec, fundingAsset, type BackendSpec } from '../coin/backends.js';
import { fundFromWallet } from '../testnet/mining/funding.js';
import type { MiningAddresses } from '../testnet/mining/mining.js';
import { startTestnet, type Testnet, type TestnetOptions, type WalletHandle } from '../testnet/testnet.js';
import { toCall } from './exchanges.js';
import { trackMining, type Mined, type MiningTracker } from './mining.js';
import { startRecordingProxy, type RawExchange, type RecordingProxy } from './proxy.js';
import type { RecordedEvent, RecordedWallet, SessionRecording } from './types.js';

export interface RecordWalletOption {
  /** The scenario's name of the wallet (not `main`). */
  name: string;
  /** Funds for it (asset → atomic units), sent from the testnet's own wallet before the session. */
  unlocked?: Record<string, bigint>;
}

export interface RecordSessionOptions {
  /** Start a testnet with these options (default: the backend's defaults); ignored with `attach`. */
  testnet?: TestnetOptions;
  /** Record on a running testnet instead: its daemon and wallet RPC URLs and its main wallet's addresses. */
  attach?: {
    daemon: string;
    wallet: string;
    addresses: MiningAddresses;
    minerAddresses?: MiningAddresses;
    backend: BackendSpec['name'];
    /** Its workdir, when known: answers that name it are matched by a pattern. */
    workdir?: string;
  };
  /**
   * Unlocked funds of the session's main wallet (atomic units of the backend's coin); default the backend's (1100
   * SAL1).
   */
  unlocked?: bigint;
  /** More wallets besides main (not with `attach`). */
  wallets?: RecordWalletOption[];
  log?: (line: string) => void;
}

export interface RecordSession {
  /** The proxied endpoints: give these to the program you record. */
  readonly daemonUrl: string;
  /** Wallet name → proxied wallet RPC URL (`main` first). */
  readonly walletUrls: ReadonlyMap<string, string>;
  readonly wallets: readonly RecordedWallet[];
  readonly spec: BackendSpec;
  /** The chain's height when the session's requests began. */
  readonly height: number;
  /** Where to mine so that no wallet of the session gets the blocks (the testnet's miner), when known. */
  readonly minerAddresses?: MiningAddresses;
  /** The testnet, when the session started it. */
  readonly testnet?: Testnet;
  /** How many requests were recorded so far. */
  count(): number;
  /** Stop recording (and the testnet the session started); the recording. */
  stop(): Promise<SessionRecording>;
}

interface Source {
  spec: BackendSpec;
  minerAddresses?: MiningAddresses;
  daemonUrl: string;
  wallets: { wallet: RecordedWallet; url: string }[];
  testnet?: Testnet;
  release(): Promise<void>;
}

async function ownTestnet(o: RecordSessionOptions): Promise<Source & { height: number }> {
  const base = o.testnet ?? {};
  const probe = backendSpec(base.backend && base.backend !== 'auto' ? base.backend : 'sim');
  const mainFunds = o.unlocked ?? probe.defaultUnlocked;
  const extra = o.wallets ?? [];
  const need = [mainFunds, ...extra.map((w) => Object.values(w.unlocked ?? {}).reduce((a, b) => a + b, 0n))].reduce(
    (a, b) => a + b + probe.feeMargin,
    0n,
  );
  const t = await startTestnet({ ...base, unlocked: fundingBucket(need, probe) });
  const spec = t.backend.spec;
  const added: WalletHandle[] = [];
  try {
    const height = await t.daemon.client.height();
    const funder = t.wallets().get('main')!;
    const asset = fundingAsset(spec);
    const plan = [
      { name: 'main', unlocked: { [asset]: mainFunds } as Record<string, bigint> },
      ...extra.map((w) => ({ name: w.name, unlocked: w.unlocked ?? {} })),
    ];
    const wallets: Source['wallets'] = [];
    for (const w of plan) {
      const h = await t.addWallet(`rec-${w.name}`);
      added.push(h);
      for (const [a, amount] of Object.entries(w.unlocked)) {
        if (amount > 0n)
          await fundFromWallet({
            daemon: t.daemon.client,
            spec,
            from: funder.client,
            to: h,
            minerAddresses: t.miner.addresses,
            amount,
            threads: t.mining.threads,
            ...(spec.fundAsset ? { asset: a } : {}),
          });
      }
      wallets.push({
        wallet: { name: w.name, addresses: h.addresses, funded: w.unlocked, history: 'fresh' },
        url: h.url,
      });
    }
    return {
      spec,
      daemonUrl: t.daemon.url,
      wallets,
      testnet: t,
      height,
      minerAddresses: t.miner.addresses,
      release: () => t.stop(),
    };
  } catch (err) {
    await t.stop().catch(() => undefined);
    throw err;
  }
}

function attached(a: NonNullable<RecordSessionOptions['attach']>): Source {
  return {
    spec: backendSpec(a.backend),
    daemonUrl: a.daemon,
    wallets: [{ wallet: { name: 'main', addresses: a.addresses, funded: {}, history: 'unknown' }, url: a.wallet }],
    ...(a.minerAddresses ? { minerAddresses: a.minerAddresses } : {}),
    release: async () => undefined,
  };
}

/** The folders of this machine an answer may name: the workdir, the temporary folder and home (real paths too). */
function localPaths(workdir: string | undefined): string[] {
  const out = new Set<string>();
  for (const p of [workdir, tmpdir(), homedir()]) {
    if (!p) continue;
    for (const q of [p, realpathOr(p)]) if (q.length > 1) out.add(q.replace(/\/+$/, ''));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The exchanges recorded and the blocks mined between them, in the order they happened. */
function inOrder(raw: RawExchange[], mines: { seq: number; mined: Mined }[]): RecordedEvent[] {
  const events: (RecordedEvent & { seq: number })[] = [
    ...raw.map((e) => ({ ...toCall(e), seq: e.seq })),
    ...mines.map((m) => ({ kind: 'mine' as const, ...m.mined, seq: m.seq })),
  ];
  events.sort((a, b) => a.seq - b.seq);
  return events.map(({ seq: _s, ...e }) => e as RecordedEvent);
}

/** Start recording: a testnet (or the one given) behind recording proxies. Stop with `stop()`. */
export async function recordSession(o: RecordSessionOptions = {}): Promise<RecordSession> {
  if (o.attach && o.wallets?.length)
    throw new Error("more wallets need a testnet of the session's own: leave out --run, or record with main only");
  const startedAt = new Date().toISOString();
  const src: Source & { height?: number } = o.attach ? attached(o.attach) : await ownTestnet(o);
  const daemon = createDaemonClient(src.daemonUrl);
  const raw: RawExchange[] = [];
  const mines: { seq: number; mined: Mined }[] = [];
  let seq = 0;
  let current = 0;
  const proxies: RecordingProxy[] = [];
  let tracker: MiningTracker | undefined;
  let sessionHeight = 0;
  try {
    // From here on, blocks are the session's: funding the wallets mined some before.
    sessionHeight = await daemon.height();
    tracker = trackMining({
      height: () => daemon.height(),
      pop: async (n) => void (await daemon.popBlocks(n)),
      mined: (mined) => void mines.push({ seq: current - 0.5, mined }),
      startHeight: sessionHeight,
    });
    const t = tracker;
    const hooks = {
      before: (target: string, path: string, body: Buffer, at: number) => {
        current = at;
        return t.before(target, path, body);
      },
      exchange: (e: RawExchange) => {
        t.answered(e.target, e.path, e.requestBody, e.responseBody);
        if (e.keep) raw.push(e);
      },
    };
    const next = (): number => ++seq;
    proxies.push(await startRecordingProxy(src.daemonUrl, 'daemon', hooks, next));
    for (const w of src.wallets) proxies.push(await startRecordingProxy(w.url, `wallet:${w.wallet.name}`, hooks, next));
  } catch (err) {
    tracker?.close();
    for (const p of proxies) await p.close().catch(() => undefined);
    await daemon.close();
    await src.release().catch(() => undefined);
    throw err;
  }
  const [daemonProxy, ...walletProxies] = proxies;
  src.testnet?.supervisor.updateInfo({
    daemon: daemonProxy!.url,
    wallet: walletProxies[0]!.url,
    addresses: src.wallets[0]!.wallet.addresses,
    recording: true,
  });
  let stopped: Promise<SessionRecording> | undefined;
  const stop = async (): Promise<SessionRecording> => {
    await tracker!.finish();
    tracker!.close();
    for (const p of proxies) await p.close().catch(() => undefined);
    await daemon.close();
    await src.release();
    return {
      startedAt,
      localPaths: localPaths(src.testnet?.workdir ?? o.attach?.workdir),
      spec: src.spec,
      ...(src.testnet ? { version: src.testnet.backend.source } : {}),
      // the replay's requires.height: before the funding of an own testnet's wallets, else where the session began
      height: src.height ?? sessionHeight,
      wallets: src.wallets.map((w) => w.wallet),
      events: inOrder(raw, mines),
    };
  };
  return {
    daemonUrl: daemonProxy!.url,
    walletUrls: new Map(src.wallets.map((w, i) => [w.wallet.name, walletProxies[i]!.url])),
    wallets: src.wallets.map((w) => w.wallet),
    spec: src.spec,
    height: sessionHeight,
    ...(src.minerAddresses ? { minerAddresses: src.minerAddresses } : {}),
    ...(src.testnet ? { testnet: src.testnet } : {}),
    count: () => raw.length,
    stop: () => (stopped ??= stop()),
  };
}
