// `npm run schema`: write scenarios/scenario.schema.json, the JSON Schema editors use to complete
// and check scenario files (referenced from each example by a yaml-language-server comment).
import { fileURLToPath } from 'node:url';
import { writeJsonSchema } from '../harness/scenario/schema.js';

const target = fileURLToPath(new URL('../../scenarios/scenario.schema.json', import.meta.url));
writeJsonSchema(target);
process.stdout.write(`wrote ${target}\n`);
