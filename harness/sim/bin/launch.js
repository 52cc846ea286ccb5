// What the three launchers beside this file share: run the simulated program `name` (dist/harness/sim/<name>/), as
// the bundle the build writes (scripts/bundle.ts: about half the start-up CPU of the modules tsc writes) while it is
// fresh, else as tsc wrote it: the choice of harness/common/bundle.ts (compiled beside the program, node built-ins
// only), as the CLI's launcher makes it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

module.exports = function launch(name) {
  const root = path.join(__dirname, '..', '..', '..');
  const entry = path.join(root, 'dist', 'harness', 'sim', name, 'main.js');
  if (!fs.existsSync(entry)) {
    process.stderr.write('saltnet simulator is not built: run "npm run build" in ' + root + '\n');
    process.exit(1);
  }
  const choice = pathToFileURL(path.join(root, 'dist', 'harness', 'common', 'bundle.js')).href;
  import(choice).then(({ programFile }) => import(pathToFileURL(programFile(entry)).href));
};
