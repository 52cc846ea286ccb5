// Results shared by the reporter suites.
import type { ScenarioResult } from '../../../harness/scenario/types.js';

export const passing: ScenarioResult = {
  file: 'scenarios/tokens.yaml',
  name: 'token listed one block after creation',
  status: 'passed',
  ms: 3456.789,
  backend: 'sim',
  steps: [
    {
      index: 0,
      name: 'create_token ABCD',
      action: 'create_token',
      status: 'passed',
      ms: 1250,
      request: { ticker: 'ABCD', supply: 1000 },
      response: { result: { tx_hash_list: ['aa'], fee_list: [123456789012345678901n] } },
    },
    { index: 1, name: 'mine 1', action: 'mine', status: 'passed', ms: 2000.4 },
    { index: 2, name: 'get_tokens', action: 'get_tokens', status: 'passed', ms: 5 },
  ],
  artifactDir: '/tmp/artifacts/20250101T000000.000Z-token-listed',
};

export const failing: ScenarioResult = {
  file: 'scenarios/odd <&"\'>.yaml',
  name: 'transfer "bob" & <check>',
  status: 'failed',
  ms: 2100,
  backend: 'salvium',
  steps: [
    { index: 0, name: 'transfer 1.5 SAL1', action: 'transfer', status: 'passed', ms: 100 },
    {
      index: 1,
      name: "get_balance <bob's> & co",
      action: 'get_balance',
      status: 'failed',
      ms: 1999.5,
      failure: {
        message: 'expectation failed: "unlocked" < 1.5 SAL1\nsecond line',
        path: 'result.balances[0].unlocked_balance',
        expected: '{ gte: 150000000 }',
        actual: '0\u0001\u001b[31mred\u001b[0m',
        pos: { file: 'scenarios/odd <&"\'>.yaml', line: 12, col: 7 },
      },
    },
    { index: 2, name: 'mine 1', action: 'mine', status: 'skipped', ms: 0 },
  ],
  artifactDir: '/tmp/artifacts/run & <1>',
  failure: {
    message: 'expectation failed: "unlocked" < 1.5 SAL1\nsecond line',
    path: 'result.balances[0].unlocked_balance',
    expected: '{ gte: 150000000 }',
    actual: '0',
    pos: { file: 'scenarios/odd <&"\'>.yaml', line: 12, col: 7 },
  },
  logTails: {
    daemon: ['2025-01-01 00:00:00 I height 1201', 'bell \u0007 and nul \u0000 and \uFFFF'],
    'wallet-rpc': ['Error: <refused> & "quoted"'],
  },
};

/** Funding its wallets failed: an infrastructure error before the first step. */
export const setupFailed: ScenarioResult = {
  file: 'scenarios/setup.yaml',
  name: 'needs funding',
  status: 'error',
  ms: 800,
  backend: 'sim',
  steps: [
    { index: 0, name: 'get_balance', action: 'get_balance', status: 'skipped', ms: 0 },
    { index: 1, name: 'mine 1', action: 'mine', status: 'skipped', ms: 0 },
  ],
  failure: { message: 'funding bob failed: -1 not enough money' },
  logTails: { daemon: ['last line'] },
  artifactDir: '/tmp/artifacts/setup',
};

export const skippedScenario: ScenarioResult = {
  file: 'scenarios/monero-only.yaml',
  name: 'not for this backend',
  status: 'skipped',
  ms: 0,
  backend: 'sim',
  steps: [],
  failure: { message: 'written for backends: monero' },
};

/** A file that does not parse: the scenario's own failure, before any step. */
export const badFile: ScenarioResult = {
  file: 'scenarios/bad.yaml',
  name: 'scenarios/bad.yaml',
  status: 'failed',
  ms: 3,
  backend: 'sim',
  steps: [],
  failure: { message: 'scenarios/bad.yaml:3:5: steps[0].transferr: unknown step kind' },
};

/** The daemon died under a step: an infrastructure error on that step. */
export const processDied: ScenarioResult = {
  file: 'scenarios/died.yaml',
  name: 'daemon died',
  status: 'error',
  ms: 1500,
  backend: 'sim',
  steps: [
    { index: 0, name: 'get_height', action: 'call', status: 'passed', ms: 10 },
    {
      index: 1,
      name: 'get_info',
      action: 'call',
      status: 'failed',
      ms: 20,
      failure: {
        message: 'connect ECONNREFUSED 127.0.0.1:4000',
        pos: { file: 'scenarios/died.yaml', line: 6, col: 5 },
      },
    },
    { index: 2, name: 'mine 1', action: 'mine', status: 'skipped', ms: 0 },
  ],
  failure: {
    message:
      "the testnet's daemon died (killed by SIGKILL) and was not started again: connect ECONNREFUSED 127.0.0.1:4000",
    pos: { file: 'scenarios/died.yaml', line: 6, col: 5 },
  },
  logTails: { daemon: ['height 30'] },
};

/** Ctrl-C while the second step ran: that step interrupted, the third skipped. */
export const interruptedRun: ScenarioResult = {
  file: 'scenarios/waits.yaml',
  name: 'waits a long time',
  status: 'interrupted',
  ms: 2500,
  backend: 'sim',
  steps: [
    { index: 0, name: 'before', action: 'call', status: 'passed', ms: 10 },
    {
      index: 1,
      name: 'the long wait',
      action: 'wait',
      status: 'interrupted',
      ms: 2400,
      failure: { message: 'interrupted by SIGINT', pos: { file: 'scenarios/waits.yaml', line: 5, col: 5 } },
    },
    { index: 2, name: 'after', action: 'call', status: 'skipped', ms: 0 },
  ],
  failure: { message: 'interrupted by SIGINT', pos: { file: 'scenarios/waits.yaml', line: 5, col: 5 } },
  artifactDir: '/tmp/artifacts/waits',
};

/** A scenario the interruption kept from starting. */
export const notRun: ScenarioResult = {
  file: 'scenarios/later.yaml',
  name: 'never started',
  status: 'skipped',
  ms: 0,
  backend: 'sim',
  steps: [],
  failure: { message: 'not run: interrupted by SIGINT' },
};
