// The real tier's files that run beside the sim tier (project real-beside in vitest.config.ts), in this order, in one
// of the run's three workers while the sim tier has the other two: neither keeps two cores busy alone.
// - 1-up: `saltnet up` cold from the tier's empty cache, which builds the default chain state (at difficulty 1);
// - 3-suite: every example scenario on real and on the simulator, compared at difficulty 1, on that state (the suite's
//   chain is the default one), restored.
// Nothing else: this file holds one of the run's workers until it ends (with 5-record and 9-fund-ahead here too, when
// the run had two workers, the sim tier took 30 minutes instead of 20).
// One file, because vitest orders files only within a worker it gives them: two files of the project could run at
// once, and 3-suite would then build the state before 1-up's cold start.
import './1-up.cases.js';
import './3-suite.cases.js';
