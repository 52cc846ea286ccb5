// The example scenarios that ship with saltnet (scenarios/ in the package): a project that depends on
// saltnet runs them by this path, since a relative `scenarios/…` is looked up in its own folder.
import { join } from 'node:path';
import { packageRoot } from '../common/paths.js';

/** The folder of saltnet's example scenarios (`join(EXAMPLE_SCENARIOS_DIR, 'transfer-groups.yaml')`). */
export const EXAMPLE_SCENARIOS_DIR = join(packageRoot(), 'scenarios');
