import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { documentedStepKinds, scenarioLanguageMarkdown } from '../../scripts/docs/scenario-language.js';
import { ACTION_KEYS } from '../../harness/scenario/schema.js';

const committed = (): string =>
  readFileSync(fileURLToPath(new URL('../../docs/scenario-language.md', import.meta.url)), 'utf8');

it('the committed docs/scenario-language.md is what the generator writes now (run `npm run docs` after changing the language or the example scenarios)', () => {
  const current = scenarioLanguageMarkdown({
    scenariosDir: fileURLToPath(new URL('../../scenarios', import.meta.url)),
  });
  expect(committed()).toBe(current);
});

it('every step kind of the schema has its own section in docs/scenario-language.md', () => {
  const kinds = documentedStepKinds();
  expect([...kinds].sort()).toEqual([...ACTION_KEYS].sort());
  const doc = committed();
  for (const k of kinds) expect(doc, `no section for ${k}`).toContain(`\n### \`${k}\`\n`);
});
