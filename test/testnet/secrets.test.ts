import { expect, it } from 'vitest';
import { generateSecret } from '../../harness/testnet/programs/secrets.js';

it('generates secrets that a boost command line cannot mistake for an option', () => {
  // A password starting with "-" made `--password <pw>` fail about once in 64 starts.
  for (let i = 0; i < 20_000; i++) expect(generateSecret()).toMatch(/^[0-9a-f]{36}$/);
});
