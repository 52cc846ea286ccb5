// The process supervisor: starts programs, watches them, knows when they are ready, and makes sure
// every process it started is gone when the harness stops. Knows nothing about Salvium.
export { setTimeoutFactor, scaled, timeoutFactor, resetTimeoutFactor } from '../common/timeouts.js';
export { redact, formatCommandLine, makeRedactor, shellQuote, REDACTED } from '../common/redact.js';
export { ProcessExitedError, ReadinessTimeout, ProcessStartError, describeExit, type ExitInfo } from './errors.js';
export {
  startProcess,
  killNow,
  type ManagedProcess,
  type ManagedProcessOptions,
  type StopOptions,
  type TextPattern,
  type WaitForTextOptions,
} from './managed.js';
export { waitUntilReady, type ReadyStrategy, type Ready } from './ready.js';
export { tcpProbe, httpProbe, type HttpProbeOptions, type Probe } from './probes.js';
export { freePorts, isPortFree, withFreshPorts, isBindError } from './ports.js';
export {
  stateDir,
  resolveStateDir,
  isRunId,
  writeRun,
  readRun,
  listRuns,
  removeRun,
  isAlive,
  reapRun,
  reapStale,
  type ReapOptions,
  procStartTime,
  selfStartTime,
  type RunProcess,
  type RunRecord,
} from './registry.js';
export { startReaper, REAPER_SCRIPT, REAPER_POLL_MS, REAPER_GRACE_MS, type Reaper } from './reaper.js';
export { createSupervisor, type Supervisor, type SupervisorOptions } from './supervisor.js';
export { newTempWorkdir, isTempWorkdirPath, settleWorkdir } from './workdir.js';
