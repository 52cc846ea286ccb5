// One scenario on a prepared testnet: its wallets' clients, its steps in order, its artifacts, and
// how it ended — passed, failed (the scenario's own failure) or error (the infrastructure's).
import { logTails } from './log-tails.js';
import { UNIQUE_SEED } from '../scenario/interpolate.js';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDaemonClient } from '../rpc/daemon.js';
import type { Endpoint } from '../rpc/http.js';
import { createWalletClient } from '../rpc/wallet.js';
import type { Testnet, WalletHandle } from '../testnet/testnet.js';
import type { AutomineMode } from '../testnet/mining/automine.js';
import { createArtifacts, type Artifacts } from './artifacts.js';
import { createRedaction, type Redaction } from '../scenario/redaction.js';
import {
  interruptionMessage,
  messageOf,
  RunInterrupted,
  untilAborted,
  watchDeaths,
  type DeathWatch,
} from './infrastructure.js';
import { startMetadataServer, type MetadataServer } from '../scenario/metadata.js';
import { refreshScope, runStep, type ScenarioWallet, type StepContext } from '../scenario/steps.js';
import type { RunnerOptions } from './options.js';
import type { Scenario } from '../scenario/model.js';
import { isUnsuccessful, type ScenarioResult, type StepResult } from '../scenario/types.js';

export interface Prepared {
  testnet: Testnet;
  /** Scenario wallet name → testnet wallet. */
  wallets: Map<string, WalletHandle>;
  /** Stop what was started for this scenario only (fresh isolation: the whole testnet). */
  release(failed: boolean): Promise<void>;
}

/** A scenario that ended before it started: `failed` (its file) or `error` (the infrastructure). */
export function endedEarly(
  s: { file: string; name: string },
  status: 'failed' | 'error',
  backend: string,
  message: string,
  t0: number,
): ScenarioResult {
  return { file: s.file, name: s.name, status, ms: Date.now() - t0, backend, steps: [], failure: { message } };
}

/** What one scenario run holds on to until it is finished. */
interface Run {
  /** `${env.NAME}` values and the wallet secrets of its exchanges, out of everything the run writes or reports. */
  redaction: Redaction;
  artifacts?: Artifacts;
  prepared?: Prepared;
  metadata?: MetadataServer;
  deaths?: DeathWatch;
  endpoints: Endpoint[];
  /** The scenario's wallets have their own refresh off for the steps (autoRefresh): on again at the end. */
  autoRefreshOff?: boolean;
  /** The testnet's automine mode before the steps: put back at the end (an `automine` step may change it). */
  automine?: AutomineMode;
}

/**
 * Run the scenario on what `prepare` gives; never rejects (unless a hook throws). Anything that goes wrong outside its
 * steps (preparing
 * the testnet or the wallets, reaching them before the first step) is an infrastructure `error`; a
 * failed step is a scenario failure, unless a process of the testnet died and was not started again.
 */
export async function runOne(
  s: Scenario,
  prepare: () => Promise<Prepared>,
  o: RunnerOptions,
  backendName: string,
): Promise<ScenarioResult> {
  const t0 = Date.now();
  o.hooks?.scenarioStart?.({ file: s.file, name: s.name });
  const run: Run = { redaction: createRedaction(s, { keepSecrets: s.keepSecrets === true }), endpoints: [] };
  for (const w of run.redaction.warnings) o.log(`saltnet: ${s.file}: ${w}`);
  const result: ScenarioResult = {
    file: s.file,
    name: s.name,
    status: 'passed',
    ms: 0,
    backend: backendName,
    steps: [],
  };
  try {
    run.artifacts = createArtifacts(o.artifactsRoot, { file: s.file, name: s.name }, { redaction: run.redaction });
    result.artifactDir = run.artifacts.dir;
    // The source too, so that `saltnet repro` can run exactly this file again.
    run.artifacts.writeScenario({ source: readFileSync(s.readFrom ?? s.file, 'utf8'), parsed: s });
    // Stopped meanwhile: what prepare() still makes is released when it is made.
    run.prepared = await untilAborted(prepare(), o.signal, (late) => void late.release(true).catch(() => undefined));
    run.automine = run.prepared.testnet.automine();
    run.deaths = watchDeaths(run.prepared.testnet);
    await runSteps(s, run, o, result);
  } catch (err) {
    if (o.signal?.aborted) {
      // The testnet is being stopped under us: whatever failed, the cause is the interruption.
      result.status = 'interrupted';
      result.failure = { message: interruptionMessage(o.signal) };
    } else {
      result.status = 'error';
      result.failure = { message: `setting up the scenario failed: ${messageOf(err)}` };
      await run.prepared?.testnet.recoverUnresponsive().catch(() => undefined);
    }
  } finally {
    await finish(s, run, o, result, t0);
  }
  return result;
}

async function runSteps(s: Scenario, run: Run, o: RunnerOptions, result: ScenarioResult): Promise<void> {
  const { testnet: t, wallets: handles } = run.prepared!;
  const artifacts = run.artifacts!;
  artifacts.writeCommandLines(t.supervisor.processes().map((p) => `${p.name}: ${p.commandLine}`));
  const onExchange =
    (target: string) => (e: { path: string; request: unknown; status: number; response: unknown; ms: number }) => {
      // A wallet secret an answer reveals (query_key) is redacted from this line on, and from every later report.
      if (target.startsWith('wallet')) run.redaction.observe(e.request, e.response);
      artifacts.transcript({ time: new Date().toISOString(), target, ...e });
    };
  // The clients wait out a crash of the program behind them (it is restarted) and repeat what is safe to repeat.
  const daemon = createDaemonClient(t.daemon.url, { onExchange: onExchange('daemon'), recover: t.daemon.recover });
  run.endpoints.push(daemon.endpoint);
  const nodes = new Map([['n0', daemon]]);
  for (const n of t.nodes.slice(1)) {
    const c = createDaemonClient(n.url, { onExchange: onExchange(`daemon:${n.name}`), recover: n.recover });
    run.endpoints.push(c.endpoint);
    nodes.set(n.name, c);
  }
  const wallets = new Map<string, ScenarioWallet>();
  for (const [name, handle] of handles) {
    const client = createWalletClient(handle.url, {
      timeoutMs: 300_000,
      onExchange: onExchange(`wallet:${name}`),
      recover: handle.recover,
      ...(handle.credentials ? { auth: handle.credentials } : {}),
    });
    run.endpoints.push(client.endpoint);
    wallets.set(name, { handle, client });
  }
  const ctx: StepContext = {
    testnet: t,
    spec: t.backend.spec,
    daemon,
    nodes,
    wallets,
    scope: { [UNIQUE_SEED]: s.name },
    metadata: async () => (run.metadata ??= await startMetadataServer()),
    baseDir: dirname(s.file),
    allowFilesOutside: o.allowFilesOutside === true,
    ...(o.replay ? { replay: (i: number) => o.replay!(s.file, i) } : {}),
  };
  // Before the first step too: a program that does not answer ends the scenario as the infrastructure's error.
  const ready = run.deaths!.stepSignal();
  await untilAborted(beforeSteps(ctx, run), o.signal ? AbortSignal.any([o.signal, ready]) : ready);
  for (const step of s.steps) {
    const done = await stepUnlessInterrupted(ctx, step, o.signal, run.deaths!.stepSignal());
    if (!done) {
      // Stopped between two steps.
      result.status = 'interrupted';
      result.failure = { message: `${interruptionMessage(o.signal!)} before step ${step.index + 1}` };
      break;
    }
    const r = run.redaction.result(done);
    result.steps.push(r);
    o.hooks?.step?.(r);
    if (r.status === 'interrupted') {
      result.status = 'interrupted';
      result.failure = r.failure ?? { message: 'interrupted' };
      break;
    }
    if (r.status === 'failed') {
      const failure = r.failure ?? { message: 'step failed' };
      const broken = await run.deaths?.broken();
      result.status = broken ? 'error' : 'failed';
      const message = !broken || failure.message.startsWith(broken) ? failure.message : `${broken}: ${failure.message}`;
      result.failure = { ...failure, message };
      // The scenario gave up on a program that does not answer: the next scenarios get it started again.
      if (broken) await t.recoverUnresponsive().catch(() => undefined);
      break;
    }
  }
  for (const st of s.steps.slice(result.steps.length))
    result.steps.push({ index: st.index, name: st.name, action: st.action.kind, status: 'skipped', ms: 0 });
}

/** Before the first step: the wallets' own refresh off (autoRefresh), then each refreshed and the scope read. */
async function beforeSteps(ctx: StepContext, run: Run): Promise<void> {
  await autoRefresh(run.prepared!.wallets.values(), false);
  run.autoRefreshOff = true;
  await refreshScope(ctx);
  for (const w of ctx.wallets.values()) await w.client.raw('refresh');
}

/**
 * The step's result; when the run is stopped while it runs, at once an `interrupted` result (the
 * step itself is not waited for: its answer would be the refused connection of a stopping
 * program); undefined when the run was stopped before it began.
 */
async function stepUnlessInterrupted(
  ctx: StepContext,
  step: Scenario['steps'][number],
  signal: AbortSignal | undefined,
  silence: AbortSignal,
): Promise<StepResult | undefined> {
  if (signal?.aborted) return undefined;
  const t0 = Date.now();
  try {
    return await untilAborted(runStep(ctx, step), signal ? AbortSignal.any([signal, silence]) : silence);
  } catch (err) {
    if (!(err instanceof RunInterrupted)) throw err;
    const action = step.action.kind === 'wallet' ? step.action.method : step.action.kind;
    return {
      index: step.index,
      name: step.name,
      action,
      // A program that stopped answering fails the step (the scenario ends as an infrastructure error: broken()).
      status: signal?.aborted ? 'interrupted' : 'failed',
      ms: Date.now() - t0,
      failure: { message: err.message, pos: step.pos },
    };
  }
}

async function finish(s: Scenario, run: Run, o: RunnerOptions, result: ScenarioResult, t0: number): Promise<void> {
  result.ms = Date.now() - t0;
  run.deaths?.off();
  const { prepared, artifacts } = run;
  if (prepared && run.automine) await restoreAutomine(prepared.testnet, run.automine, o.log);
  const bad = isUnsuccessful(result);
  // Not after a failure: a wallet RPC that does not answer would hold the run up (a later scenario turns it off again).
  if (prepared && run.autoRefreshOff && !bad) await autoRefresh(prepared.wallets.values(), true);
  // An interruption is not a failure to investigate: no log tails for it.
  if (bad && prepared && result.status !== 'interrupted') {
    result.logTails = logTails(prepared.testnet.supervisor.processes());
  }
  // The result goes to result.json, the hooks (reports, junit) and the caller: redacted in place.
  Object.assign(result, run.redaction.result({ ...result }));
  // After a failure, a request may still wait on a program that does not answer: those connections are cut.
  for (const e of run.endpoints) await (bad ? e.destroy() : e.close()).catch(() => undefined);
  await run.metadata?.close().catch(() => undefined);
  if (prepared && artifacts) {
    const logs: Record<string, string> = {};
    for (const p of prepared.testnet.supervisor.processes()) logs[p.name] = p.logFile;
    try {
      artifacts.copyLogs(logs);
    } catch {
      /* a log that was never written */
    }
  }
  artifacts?.writeResult(result);
  artifacts?.close();
  o.hooks?.scenarioEnd?.(result);
  if (!prepared) return;
  if (bad && o.keep && o.isolation === 'fresh' && result.status !== 'interrupted') {
    const t = prepared.testnet;
    o.log(
      `--keep: the testnet of "${s.name}" stays up: daemon ${t.daemon.url}, wallets ${[...prepared.wallets].map(([n, w]) => `${n} ${w.url}`).join(', ')}, workdir ${t.workdir}. Ctrl-C to stop it.`,
    );
    // Up until Ctrl-C: with a signal to watch, the run then ends (and its report is written).
    await new Promise<void>((resolve) => o.signal?.addEventListener('abort', () => resolve(), { once: true }));
  }
  await prepared
    .release(bad)
    .catch((err: unknown) => o.log(`saltnet: stopping the testnet of "${s.name}" failed: ${messageOf(err)}`));
}

/**
 * The wallet RPC's own refresh (every 20 s), off for the steps and on again after: the runner refreshes the wallets
 * itself (after each mine, at each poll of a wait). Left on, it may scan a block the miner found past the target in
 * the moment before mining pops it (mining.ts trimOvershoot), and the wallet then stands a block ahead of its daemon
 * (wallet2 only notices a popped block when another takes its height): `confirmations: 2` after `mine: 1`, seen once
 * on real v1.1.3c in reorg-double-spend. A step may turn it on (`auto_refresh`). Sent with the testnet's own clients,
 * outside the scenario's transcript; a wallet that refuses it (a restricted RPC) keeps its own.
 */
async function autoRefresh(wallets: Iterable<WalletHandle>, enable: boolean): Promise<void> {
  for (const w of wallets) await w.client.call('auto_refresh', { enable }).catch(() => undefined);
}

/**
 * Put the testnet's automine back as it was before the scenario (its steps may have switched it), and wait for a block
 * it was mining to be in, its overshoot popped and the wallets synced: the next scenario must not start on a chain
 * that is still moving (seen in CI: a sim burst of 224 blocks popped while the next scenario's wallet opened). A mine
 * to height 0 mines nothing; it waits for the chain lock automine holds while it mines.
 */
async function restoreAutomine(t: Testnet, before: AutomineMode, log: (line: string) => void): Promise<void> {
  const now = t.automine();
  if (now.mineOnTx === before.mineOnTx && now.blockTime === before.blockTime) return;
  try {
    t.setAutomine(before);
    await t.mine({ to: 0 });
  } catch (err) {
    log(`saltnet: could not put automine back: ${messageOf(err)}`);
  }
}
