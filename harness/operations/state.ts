// What a running testnet is doing now that only the process that owns it knows: its automine mode and its network
// (`saltnet status` asks it; it changes nothing, and is answered beside any other request).
import type { AutomineMode } from '../testnet/mining/automine.js';
import { defineOperation, NO_BODY } from './operation.js';
import type { NetworkAnswer } from './network.js';

export interface StateAnswer extends NetworkAnswer {
  automine: AutomineMode;
}

export const stateOperation = defineOperation({
  name: 'state',
  what: 'read what the testnet is doing',
  body: NO_BODY,
  concurrent: true,
  run(t): Promise<StateAnswer> {
    return Promise.resolve({ automine: t.automine(), groups: t.groups(), links: t.links() });
  },
});
