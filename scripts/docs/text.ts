// The hand-written parts of the reference: intro, placeholders, outro (notes per step kind live in
// the step kinds' own modules, harness/scenario/steps/).
import { METADATA_FIELDS, SCOPE_ROOTS, WALLET_FIELDS } from '../../harness/scenario/interpolate.js';

/** What each placeholder root means; checked against interpolate.ts so a new root cannot go undocumented. */
export const PLACEHOLDERS: { form: string; root: string; meaning: string }[] = [
  { form: '${<saved name>}', root: '', meaning: 'a value an earlier step saved with `save:`' },
  {
    form: '${<wallet>.address}',
    root: '',
    meaning:
      "the wallet's address to send to at the current height: on Salvium the CN address below height 1100 and the Carrot address from 1100",
  },
  { form: '${<wallet>.cn}', root: '', meaning: "the wallet's CryptoNote address (`SaLvT…`)" },
  { form: '${<wallet>.carrot}', root: '', meaning: "the wallet's Carrot address (`SC1T…`; empty on Monero)" },
  {
    form: '${wallets.<wallet>.address}',
    root: 'wallets',
    meaning: 'the long form of the three above (also `.cn`, `.carrot`); `<wallet>` is `main` or a declared wallet',
  },
  {
    form: '${metadata.<name>.url}',
    root: 'metadata',
    meaning:
      'what an earlier `metadata` step serves: `.url`, `.sha256` (64 hex characters) and `.size` (bytes), exactly as served',
  },
  { form: '${height}', root: 'height', meaning: "the daemon's height (number of blocks) when the step starts" },
  {
    form: '${env.NAME}',
    root: 'env',
    meaning:
      "the environment variable NAME of the `saltnet run` process: a secret, replaced by `<redacted env.NAME>` where its value appears as a value in the artifacts, logs and reports (a value under 16 characters only as a whole word, and in saltnet's messages only where it is quoted; never inside a JSON key)",
  },
  {
    form: '${env.public.NAME}',
    root: 'env',
    meaning: 'the same value, marked as no secret: not redacted (unless the scenario also names it as `${env.NAME}`)',
  },
  {
    form: '${unique.NAME}',
    root: 'unique',
    meaning:
      "a token ticker of this scenario's own (4 characters A–Z 0–9, from the scenario's name and NAME): scenarios that share a testnet (`--isolation shared`) never create the same token, and every run of one scenario uses the same ticker, so runs and backends compare. `sal${unique.NAME}` is its asset type",
  },
];

export function checkVocabulary(): void {
  const roots = PLACEHOLDERS.map((p) => p.root).filter(Boolean);
  const missing = SCOPE_ROOTS.filter((r) => !roots.includes(r));
  if (missing.length)
    throw new Error(
      `docs: placeholder roots without documentation: ${missing.join(', ')} (add them to PLACEHOLDERS in scripts/docs/text.ts)`,
    );
  const walletForms = PLACEHOLDERS.map((p) => /^\$\{<wallet>\.(\w+)\}$/.exec(p.form)?.[1]).filter(Boolean);
  const missingFields = WALLET_FIELDS.filter((f) => !walletForms.includes(f));
  if (missingFields.length)
    throw new Error(`docs: wallet placeholder fields without documentation: ${missingFields.join(', ')}`);
  if (METADATA_FIELDS.join() !== 'url,sha256,size')
    throw new Error(
      `docs: the metadata fields changed (${METADATA_FIELDS.join(', ')}): update PLACEHOLDERS in scripts/docs/text.ts`,
    );
}

export const INTRO = `A scenario file is a YAML document that says what a Salvium testnet must hold before it starts
(\`requires\`, \`wallets\`) and then what to do and what to expect (\`steps\`). \`saltnet run\` runs them
against a private testnet — real Salvium binaries when it finds them, else the built-in simulator:

\`\`\`sh
npx saltnet run 'scenarios/*.yaml'
npx saltnet run scenarios/token-rejections.yaml --isolation fresh --keep
\`\`\`

Every file is checked before anything starts. A bad file is reported with its file, line and
column, what is wrong and what would fit there — every problem at once. Editors that read JSON
Schema (for example VS Code with the YAML extension) complete and check scenario files as you
type when the file starts with

\`\`\`yaml
# yaml-language-server: $schema=./scenario.schema.json
\`\`\`

(the schema is [scenarios/scenario.schema.json](SCENARIOS/scenario.schema.json); \`npm run schema\` regenerates it).`;

export const FIRST_EXAMPLE_NOTE = `Read it top to bottom: the runner brings the chain to height 1201 (tokens are active from
1200) and makes sure the main wallet holds 1001 unlocked SAL1; then each step calls one wallet
method and checks the answer. \`result.…\` paths point into the JSON-RPC answer; \`{ absent: true }\`
and \`{ length: 1 }\` are [matchers](#expectations-and-matchers); \`1000 SAL1\` is an [amount](#amounts).`;

export const OUTRO = `## When a step fails

The runner prints the failing step, its \`file:line:col\`, what was expected and what was there, and
the last log lines of each process; the artifacts folder (\`.saltnet/artifacts\` by default) keeps the
resolved scenario, every command line, every process log and a transcript of every RPC request and
response. \`saltnet repro <artifact folder>\` replays a failed run.

Scenarios in [scenarios/](SCENARIOS/) pass on the simulator and are written to pass unchanged on real
Salvium: they check codes, messages and relations (\`gt: 0\`, \`contains\`), never exact fees, input
counts or other details that only the simulator fixes. Write yours the same way. The traps that
catch people working from the short public Salvium spec — the address switch at height 1100,
\`balances[]\`, the 7-destination limit, token costs — are in [troubleshooting.md](troubleshooting.md).`;

// ---- sections ----
