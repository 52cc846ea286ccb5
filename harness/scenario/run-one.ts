// One scenario on a prepared testnet: its wallets' clients, its steps in order, its artifacts, and
// how it ended — passed, failed (the scenario's own failure) or error (the infrastructure's).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDaemonClient } from '../rpc/daemon.js';
import type { Endpoint } from '../rpc/http.js';
import { createWalletClient } from '../rpc/wallet.js';
import type { Testnet, WalletHandle } from '../testnet/testnet.js';
import { createArtifacts, type Artifacts } from './artifacts.js';
import { envRedaction, type EnvRedaction } from './env-secrets.js';
import { messageOf, watchDeaths, type DeathWatch } from './infra.js';
import { startMetadataServer, type MetadataServer } from './metadata.js';
import { refreshScope, runStep, type ScenarioWallet, type StepContext } from './steps.js';
import type { RunnerOptions } from './runner.js';
import { isUnsuccessful, type Scenario, type ScenarioResult } from './types.js';

export interface Prepared {
  testnet: Testnet;
  /** Scenario wallet name → testnet wallet. */
  wallets: Map<string, WalletHandle>;
  /** Stop what was started for this scenario only (fresh isolation: the whole testnet). */
  release(failed: boolean): Promise<void>;
}

/** A scenario that ended before it started: `failed` (its file) or `error` (the infrastructure). */
export function endedEarly(s: { file: string; name: string }, status: 'failed' | 'error', backend: string, message: string, t0: number): ScenarioResult {
  return { file: s.file, name: s.name, status, ms: Date.now() - t0, backend, steps: [], failure: { message } };
}

/** What one scenario run holds on to until it is finished. */
interface Run {
  /** `${env.NAME}` values out of everything the run writes or reports. */
  env: EnvRedaction;
  artifacts?: Artifacts;
  prepared?: Prepared;
  metadata?: MetadataServer;
  deaths?: DeathWatch;
  endpoints: Endpoint[];
}

/**
 * Run the scenario on what `prepare` gives; never rejects (unless a hook throws). Anything that goes wrong outside its steps (preparing
 * the testnet or the wallets, reaching them before the first step) is an infrastructure `error`; a
 * failed step is a scenario failure, unless a process of the testnet died and was not started again.
 */
export async function runOne(s: Scenario, prepare: () => Promise<Prepared>, o: RunnerOptions, backendName: string): Promise<ScenarioResult> {
  const t0 = Date.now();
  o.hooks?.scenarioStart?.({ file: s.file, name: s.name });
  const run: Run = { env: envRedaction(s), endpoints: [] };
  for (const w of run.env.warnings) o.log(`saltnet: ${s.file}: ${w}`);
  const result: ScenarioResult = { file: s.file, name: s.name, status: 'passed', ms: 0, backend: backendName, steps: [] };
  try {
    const redact = run.env.redact;
    run.artifacts = createArtifacts(o.artifactsRoot, { file: s.file, name: s.name }, { secrets: run.env.secrets, redact: (text) => redact(text) });
    result.artifactDir = run.artifacts.dir;
    // The source too, so that `saltnet repro` can run exactly this file again.
    run.artifacts.writeScenario({ source: readFileSync(s.file, 'utf8'), parsed: s });
    run.prepared = await prepare();
    run.deaths = watchDeaths(run.prepared.testnet);
    await runSteps(s, run, o, result);
  } catch (err) {
    result.status = 'error';
    result.failure = { message: `setting up the scenario failed: ${messageOf(err)}` };
  } finally {
    await finish(s, run, o, result, t0);
  }
  return result;
}

async function runSteps(s: Scenario, run: Run, o: RunnerOptions, result: ScenarioResult): Promise<void> {
  const { testnet: t, wallets: handles } = run.prepared!;
  const artifacts = run.artifacts!;
  artifacts.writeCommandLines(t.supervisor.processes().map((p) => `${p.name}: ${p.commandLine}`));
  const onExchange = (target: string) => (e: { path: string; request: unknown; status: number; response: unknown; ms: number }) =>
    artifacts.transcript({ time: new Date().toISOString(), target, ...e });
  // The clients wait out a crash of the program behind them (it is restarted) and repeat what is safe to repeat.
  const daemon = createDaemonClient(t.daemon.url, { onExchange: onExchange('daemon'), recover: t.daemon.recover });
  run.endpoints.push(daemon.endpoint);
  const wallets = new Map<string, ScenarioWallet>();
  for (const [name, handle] of handles) {
    const client = createWalletClient(handle.url, { timeoutMs: 300_000, onExchange: onExchange(`wallet:${name}`), recover: handle.recover, ...(handle.credentials ? { auth: handle.credentials } : {}) });
    run.endpoints.push(client.endpoint);
    wallets.set(name, { handle, client });
  }
  const ctx: StepContext = {
    testnet: t,
    spec: t.backend.spec,
    daemon,
    wallets,
    scope: {},
    metadata: async () => (run.metadata ??= await startMetadataServer()),
    baseDir: dirname(s.file),
    allowFilesOutside: o.allowFilesOutside === true,
  };
  await refreshScope(ctx);
  for (const w of wallets.values()) await w.client.raw('refresh');
  for (const step of s.steps) {
    const r = run.env.redactValue(await runStep(ctx, step));
    result.steps.push(r);
    o.hooks?.step?.(r);
    if (r.status === 'failed') {
      const failure = r.failure ?? { message: 'step failed' };
      const broken = await run.deaths?.broken();
      result.status = broken ? 'error' : 'failed';
      result.failure = broken ? { ...failure, message: `${broken}: ${failure.message}` } : failure;
      break;
    }
  }
  for (const st of s.steps.slice(result.steps.length)) result.steps.push({ index: st.index, name: st.name, action: st.action.kind, status: 'skipped', ms: 0 });
}

async function finish(s: Scenario, run: Run, o: RunnerOptions, result: ScenarioResult, t0: number): Promise<void> {
  result.ms = Date.now() - t0;
  run.deaths?.off();
  const { prepared, artifacts } = run;
  const bad = isUnsuccessful(result);
  if (bad && prepared) {
    result.logTails = {};
    for (const p of prepared.testnet.supervisor.processes()) result.logTails[p.name] = p.tail(20);
  }
  // The result goes to result.json, the hooks (reports, junit) and the caller: redacted in place.
  Object.assign(result, run.env.redactValue({ ...result }));
  for (const e of run.endpoints) await e.close().catch(() => undefined);
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
  if (bad && o.keep && o.isolation === 'fresh') {
    const t = prepared.testnet;
    o.log(`--keep: the testnet of "${s.name}" stays up: daemon ${t.daemon.url}, wallets ${[...prepared.wallets].map(([n, w]) => `${n} ${w.url}`).join(', ')}, workdir ${t.workdir}. Ctrl-C to stop it.`);
    await new Promise<never>(() => undefined);
  }
  await prepared.release(bad).catch((err: unknown) => o.log(`saltnet: stopping the testnet of "${s.name}" failed: ${messageOf(err)}`));
}
