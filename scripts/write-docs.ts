// `npm run docs`: write docs/scenario-language.md, the scenario-language reference generated from the
// schema (harness/scenario/schema.ts) and the example scenarios it quotes.
import { fileURLToPath } from 'node:url';
import { writeScenarioDocs } from './docs/scenario-language.js';

const target = fileURLToPath(new URL('../../docs/scenario-language.md', import.meta.url));
writeScenarioDocs(target, { scenariosDir: fileURLToPath(new URL('../../scenarios', import.meta.url)) });
process.stdout.write(`wrote ${target}\n`);
