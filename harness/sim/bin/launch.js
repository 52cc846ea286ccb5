// What the three launchers beside this file share: run the simulated program `name` (dist/harness/sim/<name>/), as
// the bundle the build writes (scripts/bundle.ts: about half the start-up CPU of the modules tsc writes) unless a tsc
// emit came after it (dist/.tsbuildinfo newer), else as tsc wrote it. harness/common/bundle.ts decides the same way.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

module.exports = function launch(name) {
  const root = path.join(__dirname, '..', '..', '..');
  const entry = path.join(root, 'dist', 'harness', 'sim', name, 'main.js');
  if (!fs.existsSync(entry)) {
    process.stderr.write('saltnet simulator is not built: run "npm run build" in ' + root + '\n');
    process.exit(1);
  }
  const bundle = path.join(root, 'dist', 'harness', 'sim', name, 'main.bundle.js');
  const bundled = mtime(bundle);
  const emitted = mtime(path.join(root, 'dist', '.tsbuildinfo'));
  const fresh = bundled !== undefined && (emitted === undefined || bundled >= emitted);
  import(pathToFileURL(fresh ? bundle : entry).href);
};
