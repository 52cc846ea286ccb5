// vitest setupFiles entry (`saltnet/vitest/setup`): runs in each test file before its tests are
// collected and gives them the timeouts the testnet needs (the global setup put them in the
// context: harness/vitest/timeouts.ts). vi.setConfig applies to the file it runs in; vitest
// restores its configuration after the file.
import { inject, vi } from 'vitest';
import { checkContext } from './context.js';

const { timeouts } = checkContext(inject('saltnet'));
if (timeouts) vi.setConfig({ testTimeout: timeouts.test, hookTimeout: timeouts.hook });
