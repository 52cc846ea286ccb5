// The real tier's files that run beside the sim tier (project real-beside in vitest.config.ts), in this order, in one
// of the run's three workers while the sim tier has the other two: neither keeps two cores busy alone.
// - 1-up: `saltnet up` cold from the tier's empty cache, which builds the default chain state (at difficulty 1);
// - 2-ahead: starts `saltnet cache build --for 'scenarios/*.yaml' --difficulty 500` on that state, in the background:
//   the states the suite at 500 (9-suite-500, after the sim tier) restores, built here instead of first on the real
//   tier's longest path;
// - 3-suite: every example scenario on real and on the simulator, compared at difficulty 1, on that state (the suite's
//   chain is the default one), restored;
// - 4-ahead: waits for 2-ahead's build and checks what it saved.
// Nothing else: this file holds one of the run's workers until it ends (with 5-record and 9-fund-ahead here too, when
// the run had two workers, the sim tier took 30 minutes instead of 20).
// One file, because vitest orders files only within a worker it gives them: two files of the project could run at
// once, and 3-suite or 2-ahead would then build the state before 1-up's cold start.
import './1-up.cases.js';
import './2-ahead.cases.js';
import './3-suite.cases.js';
import './4-ahead.cases.js';
