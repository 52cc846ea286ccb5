#!/usr/bin/env node
// The `saltnet` command: runs saltnet.js, or the bundle of it the build writes beside it (half the start-up CPU).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { programFile } from '../common/bundle.js';

await import(pathToFileURL(programFile(fileURLToPath(new URL('./saltnet.js', import.meta.url)))).href);
