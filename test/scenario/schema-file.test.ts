import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../harness/scenario/schema.js';

it('the committed scenarios/scenario.schema.json is the current schema (run `npm run schema` after changing the language)', () => {
  const committed = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../scenarios/scenario.schema.json', import.meta.url)), 'utf8'),
  );
  expect(committed).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
});
