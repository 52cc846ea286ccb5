// The scenario-language reference (docs/scenario-language.md), generated from the JSON Schema that
// schema.ts exports: top-level keys, every step kind with its fields, matchers, placeholders and
// amounts, with examples quoted from the example scenarios at generation time. Each step kind's
// notes come from its module (harness/scenario/steps/); the other hand-written parts are in text.ts.
// So the whole file is reproducible: `npm run docs` writes it, test/scenario/docs-file.test.ts keeps
// it current.
import { isPlainObject } from '../../harness/common/plain-object.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AMOUNT_FORMS, amountError, parseAmount } from '../../harness/coin/amounts.js';
import { amountUnits } from '../../harness/coin/backends.js';
import { limitsMarkdown } from '../../harness/scenario/limits-docs.js';
import {
  assetPattern,
  KNOWN_PARAMS,
  NAME_RE,
  RESERVED_WALLET_NAMES,
  STEP_COMMON_KEYS,
  WALLET_METHODS,
  scenarioJsonSchema,
} from '../../harness/scenario/schema.js';
import { stepKind } from '../../harness/scenario/steps/registry.js';
import type { WalletMethod } from '../../harness/scenario/model.js';
import { fallbackExample, pickExample, readExamples, type ExampleFile } from './examples.js';
import {
  code,
  descriptionText,
  fence,
  fieldTable,
  list,
  nonNull,
  obj,
  strings,
  table,
  text,
  typeText,
  unwrap,
  type Json,
  type Link,
} from './json-text.js';
import { FIRST_EXAMPLE_NOTE, INTRO, OUTRO, PLACEHOLDERS, checkVocabulary } from './text.js';

export interface DocsOptions {
  /** Folder of the example scenarios (quoted in the reference). */
  scenariosDir: string;
  /** The JSON Schema to document (default: scenarioJsonSchema()). */
  schema?: Json;
  /** How the reference links to the scenarios folder (default: ../scenarios, as seen from docs/). */
  scenariosLink?: string;
}

function stepKinds(schema: Json): { kinds: string[]; step: Json } {
  const step = obj(obj(obj(schema.properties).steps).items);
  const kinds = list(step.oneOf)
    .map((b) => strings(obj(b).required)[0])
    .filter((k): k is string => typeof k === 'string');
  return { kinds, step };
}

/** Every step kind the schema defines (the keys a step must have exactly one of). */
export function documentedStepKinds(schema: Json = scenarioJsonSchema()): string[] {
  return stepKinds(schema).kinds;
}

const anchor = (kind: string): string => `step-${kind.replace(/_/g, '-')}`;

function stepSection(
  kind: string,
  node: Json,
  stepProps: Json,
  files: ExampleFile[],
  kinds: string[],
  scenariosLink: string,
): string {
  const out: string[] = [`<a id="${anchor(kind)}"></a>`, '', `### \`${kind}\``, ''];
  const desc = typeof node.description === 'string' ? node.description : '';
  if (desc) out.push(`In short: ${text(desc)}.`, '');
  const note = stepKind(kind)?.docs.note;
  if (note) out.push(note, '');
  const core = unwrap(node);
  const { branches, nullable } = nonNull(node);
  if (core.type === 'object' && isPlainObject(core.properties)) {
    out.push(`Value: a mapping${nullable ? ' (may be empty)' : ''}.`, '');
    // A field holding exactly what another step kind holds (wait's call or wallet method) links there.
    const same = (key: string, n: Json): boolean =>
      kinds.includes(key) && key !== kind && JSON.stringify(n) === JSON.stringify(stepProps[key]);
    const link = (key: string, n: Json): Link | undefined =>
      same(key, n)
        ? {
            type: `as the [\`${key}\`](#${anchor(key)}) step`,
            description: `the call to repeat, written as in a \`${key}\` step`,
            required: 'one of these',
          }
        : undefined;
    out.push(
      fieldTable(core, {
        stop: Object.keys(obj(core.properties)).filter((k) => same(k, obj(obj(core.properties)[k]))),
        link,
      }),
      '',
    );
  } else if (branches.length > 1) {
    out.push('Value, one of:', '');
    for (const b of branches) {
      if (b.type === 'object' && isPlainObject(b.properties))
        out.push(`- a mapping:`, '', fieldTable(b).replace(/^/gm, '  ').replace(/^ +$/gm, ''), '');
      else out.push(`- ${typeText(b)}${b.description ? ` — ${descriptionText(b)}` : ''}`);
    }
    out.push('');
  } else {
    out.push(`Value: ${typeText(node)}.`, '');
  }
  if ((WALLET_METHODS as readonly string[]).includes(kind)) {
    const own = Object.keys(obj(core.properties));
    const known = KNOWN_PARAMS[kind as WalletMethod].filter((k) => !own.includes(k));
    const lead = own.length
      ? `Other keys are sent to \`${kind}\` as written. The raw request fields`
      : 'The request fields';
    out.push(
      `${lead} of \`${kind}\` are ${known.map(code).join(', ')}; a key that looks like a misspelling of one of these is reported as an error (send it with \`call\` if you mean it).`,
      '',
    );
  }
  const ex = pickExample(files, kind);
  const exampleText = ex?.text ?? fallbackExample(kind);
  if (!exampleText)
    throw new Error(
      `docs: no example for the step kind "${kind}": use it in a scenario under scenarios/ or give its step kind a docs.example (harness/scenario/steps/)`,
    );
  out.push(
    ex ? `Example, from [${ex.file}](${scenariosLink}/${ex.file}):` : 'Example:',
    '',
    fence('yaml', exampleText),
    '',
  );
  const users = files
    .filter((f) => f.steps.some((s) => s.action === kind))
    .map((f) => `[${f.name}](${scenariosLink}/${f.name})`);
  if (users.length) out.push(`Used in: ${users.join(', ')}.`, '');
  return out.join('\n');
}

function matcherSection(schema: Json): string {
  const m = obj(obj(schema.$defs).matcher);
  const props = obj(m.properties);
  const body = Object.entries(props).map(([k, v]) => {
    const node = obj(v);
    const operand =
      isPlainObject(node) && (node.type || node.anyOf || node.enum || 'const' in node || node.$ref)
        ? typeText(node)
        : 'any value';
    return [code(k), operand, descriptionText(node)];
  });
  return [
    '## Expectations and matchers',
    '',
    '`expect` maps paths into the answer to what must be there. A path starts at `result` or `error`',
    '(the answer is `{result: …}` or `{error: {code, message}}`) and goes on with `.key`, `[index]` or',
    '`["key.with.dots"]`: `result.tx_hash`, `result.balances[0].unlocked_balance`, `result["token.version"]`.',
    'Every expectation of a step must hold.',
    '',
    'The value is either a plain value or a matcher. A plain value must be deeply equal to what is',
    'there, where numbers and [amounts](#amounts) compare exactly by value (`result.amount: 2.5 SAL1`',
    'holds for `250000000`) and a missing key counts as an empty list (the RPC servers omit empty',
    'lists). A matcher is a mapping with exactly one of these keys:',
    '',
    table(['matcher', 'operand', 'holds when'], body),
    '',
    'To combine matchers write `all: [{ gte: 1 }, { lte: 5 }]`. A list `contains` a mapping when one',
    "of its elements has all of that mapping's fields with equal values, so",
    '`result.in: { contains: { txid: "${tx}", type: in } }` finds one transfer among many. Matchers',
    'inside a `contains` or `not_contains` operand are evaluated, at any depth:',
    '`result.balances: { not_contains: { asset_type: SAL1, balance: { gt: 0 } } }` fails when a SAL1',
    'balance is above 0, and `{ contains: { gt: 5 } }` holds for a list of numbers with one above 5; the',
    'file check reports a bad matcher there as anywhere else. To compare with a mapping that has a key',
    'named like a matcher, write `eq: { … }`.',
    '',
    '`expect_error` says the step must answer an error instead: `{ code: -7, message: Token already exists. }`;',
    'leave out `code` or `message` to accept any, and `message` takes a matcher too',
    '(`{ message: { contains: not found } }`). A step without `expect_error` fails on any error answer.',
  ].join('\n');
}

function placeholderSection(): string {
  checkVocabulary();
  return [
    '## Placeholders',
    '',
    'Strings in steps may hold `${…}` placeholders, resolved just before the step runs:',
    '',
    table(
      ['placeholder', 'value'],
      PLACEHOLDERS.map((p) => [code(p.form), text(p.meaning)]),
    ),
    '',
    '`<wallet>` is `main` (the wallet every scenario has) or a wallet declared under `wallets`.',
    'A string that is exactly one placeholder takes the value\'s own type (`amount: "${amount}"` stays a',
    'number); placeholders inside longer text are turned into text. `$${` writes a literal `${`.',
    'Placeholders are checked before the run: an unknown name, a value saved only by a later step or a',
    'misspelt field is reported with its line and column. They cannot be used where the value is',
    'needed before the steps run (`requires`, `wallets`, names of wallets, saves, metadata and',
    'snapshots), and the paths under `save` are not interpolated.',
  ].join('\n');
}

function amountSection(): string {
  const ok = ['150000000', '"150000000"', '1.5 SAL1', '0.00000001 SAL1', '2 SAL', '0.5 XMR'];
  const okRows = ok.map((w) => {
    const v = w.startsWith('"') ? w.slice(1, -1) : /^\d+$/.test(w) ? Number(w) : w;
    return [code(w), code(parseAmount(v).toString())];
  });
  const bad: [string, unknown][] = [
    ['1.5', 1.5],
    ['1.5SAL1', '1.5SAL1'],
    ['1 sal1', '1 sal1'],
    ['0.123456789 SAL1', '0.123456789 SAL1'],
    ['-1', -1],
  ];
  const badRows = bad.map(([w, v]) => [code(w), text(amountError(v) ?? 'accepted')]);
  const decimals = [...amountUnits()].map(([u, d]) => `${u} ${d}`).join(', ');
  return [
    '## Amounts',
    '',
    `Amounts are exact: ${text(AMOUNT_FORMS.replace(/^an amount: /, ''))}. Decimals per unit: ${decimals}`,
    '(1 SAL1 = 100000000 atomic units). No floating point is involved anywhere. In YAML `1.5 SAL1` needs',
    'no quotes; a bare `1.5` is refused because it is ambiguous.',
    '',
    table(['written', 'atomic units'], okRows),
    '',
    table(['written', 'refused because'], badRows),
    '',
    'The unit only fixes the number of decimals; the asset is chosen by `asset:` (tokens have 8',
    'decimals, like SAL1). Amounts are accepted wherever the schema says *amount*, and by the',
    'comparison matchers (`gt: 1000 SAL1`) and plain values in expectations.',
  ].join('\n');
}

function namesSection(schema: Json): string {
  const backends = strings(obj(obj(obj(schema.properties).backends).items).enum);
  return [
    '## Names, assets and backends',
    '',
    `- **Names** of wallets, saved values, metadata and snapshots: letters, digits and \`_\`, not starting with a digit (\`${NAME_RE.source}\`).`,
    `  Wallets cannot be named ${RESERVED_WALLET_NAMES.map(code).join(', ')}; saved values cannot take those names or a wallet's name.`,
    `- **Assets** (the keys of \`unlocked\`): \`SAL1\`, \`SAL\`, \`XMR\`, or a token: lower-case \`sal\` + 4 upper-case letters or digits, e.g. \`salABCD\` (\`${assetPattern()}\`).`,
    `- **Backends** (\`backends:\`): ${backends.map(code).join(', ')}. A scenario that lists backends is skipped on the others; a scenario with a \`create_token\` step is skipped on \`monero\`, which has no tokens.`,
  ].join('\n');
}

function topLevelSection(schema: Json): string {
  return [
    '## Top-level keys',
    '',
    fieldTable(schema, {
      stop: ['steps'],
      link: (key, n) =>
        key === 'steps'
          ? { type: `${n.minItems === 1 ? 'non-empty ' : ''}list of [steps](#steps)`, description: descriptionText(n) }
          : undefined,
    }),
    '',
    'Before the first step the runner brings the chain to `requires.height` (at least 1201 when the',
    'scenario creates a token), makes sure `main` holds the `requires.unlocked` amounts unlocked, and',
    'creates each declared wallet, funding it from `main` with its `unlocked` amounts. With',
    '`--isolation shared` (the default) scenarios share a chain per worker but each gets fresh wallets;',
    'with `--isolation fresh` each gets its own testnet.',
    '',
    '`tokens` (under `requires` for `main`, or under a declared wallet) names tokens the wallet has',
    'created before the first step, each supply whole and unlocked: `tokens: {ERR1: {supply: 10, name:',
    'refused one}}` (see `scenarios/token-errors.yaml`). Their cost (1000 SAL1 each and a fee margin) is',
    'funded on top of `unlocked`. A token created by a step is locked for 60 blocks; declared here, those',
    "blocks are not the scenario's. In a shared run above difficulty 1 the tokens are made with the",
    'wallets funded ahead, at difficulty 1, and cached with them (see',
    '[difficulty.md](difficulty.md#tokens-made-ahead)); otherwise they are made as the scenario starts. A',
    'ticker is made once per chain: two declarations of one ticker, or a `create_token` step of a declared',
    'one, are refused at their line, and two scenarios of one run must not declare the same ticker.',
    '',
    'A wallet may ask for a token under `unlocked` when a wallet of the scenario makes it before the steps:',
    "`bob: {unlocked: {salERR1: 5 SAL1}}` beside `requires.tokens: {ERR1: {supply: 10}}`. The token's maker pays",
    'it once made (by `transfer_split`, with a fee margin funded for each payment), and the receiver finds it',
    'unlocked at the first step. A token no wallet makes, or more of one than its supply, is refused at its line.',
  ].join('\n');
}

function stepsSection(schema: Json, files: ExampleFile[], scenariosLink: string): string {
  const { kinds, step } = stepKinds(schema);
  const props = obj(step.properties);
  const common: Json = { type: 'object', properties: Object.fromEntries(STEP_COMMON_KEYS.map((k) => [k, props[k]])) };
  const summary = kinds.map((k) => {
    const d = typeof obj(props[k]).description === 'string' ? String(obj(props[k]).description) : '';
    return [`[\`${k}\`](#${anchor(k)})`, text(d)];
  });
  return [
    '## Steps',
    '',
    `Each step has exactly one action — one of the keys below — and may have ${STEP_COMMON_KEYS.map(code).join(', ')}.`,
    'Steps run in order; the first that fails ends the scenario.',
    '',
    fieldTable(common, { stop: ['expect'] }),
    '',
    table(['action', 'what it does'], summary),
    '',
    '## Step kinds',
    '',
    ...kinds.map((k) => stepSection(k, obj(props[k]), props, files, kinds, scenariosLink)),
  ].join('\n');
}

// ---- the document ----

/** docs/scenario-language.md as Markdown. */
export function scenarioLanguageMarkdown(opts: DocsOptions): string {
  const schema = opts.schema ?? scenarioJsonSchema();
  const link = opts.scenariosLink ?? '../scenarios';
  const { kinds } = stepKinds(schema);
  const files = readExamples(opts.scenariosDir, kinds);
  const file = (name: string): ExampleFile => {
    const f = files.find((x) => x.name === name);
    if (!f) throw new Error(`docs: the example scenario ${name} is missing from ${opts.scenariosDir}`);
    return f;
  };
  const whole = (name: string): string =>
    [`[${name}](${link}/${name}):`, '', fence('yaml', file(name).text)].join('\n');
  const toc = [
    ['A first example', 'a-first-example'],
    ['Top-level keys', 'top-level-keys'],
    ['Steps', 'steps'],
    ['Step kinds', 'step-kinds'],
    ['Expectations and matchers', 'expectations-and-matchers'],
    ['Placeholders', 'placeholders'],
    ['Amounts', 'amounts'],
    ['Names, assets and backends', 'names-assets-and-backends'],
    ['Limits', 'limits'],
    ['More examples', 'more-examples'],
    ['When a step fails', 'when-a-step-fails'],
  ];
  const doc = [
    '<!-- Generated by `npm run docs` (scripts/write-docs.ts, scripts/docs/) from the step kinds and schema in',
    '     harness/scenario/ (steps/, schema.ts) and the example scenarios. Do not edit: change those and run `npm run docs`. -->',
    '',
    '# The scenario language',
    '',
    INTRO.replaceAll('SCENARIOS', link),
    '',
    'Contents:',
    '',
    ...toc.map(([t, a]) => `- [${t}](#${a})`),
    '',
    '## A first example',
    '',
    whole('token-create-and-list.yaml'),
    '',
    FIRST_EXAMPLE_NOTE,
    '',
    topLevelSection(schema),
    '',
    stepsSection(schema, files, link),
    matcherSection(schema),
    '',
    placeholderSection(),
    '',
    amountSection(),
    '',
    namesSection(schema),
    '',
    limitsMarkdown(),
    '',
    '## More examples',
    '',
    'A transfer between two wallets, followed through the transfer groups with `wait`, `save` and placeholders:',
    '',
    whole('transfer-groups.yaml'),
    '',
    'A token whose metadata is served by the run itself:',
    '',
    whole('token-rich-metadata.yaml'),
    '',
    OUTRO.replaceAll('SCENARIOS', link),
    '',
  ].join('\n');
  return collapseBlankLines(doc);
}

/** At most one blank line in a row, outside fenced blocks (quoted files stay exactly as written). */
function collapseBlankLines(doc: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of doc.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (!inFence && line === '' && out.at(-1) === '') continue;
    out.push(line);
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** Write the reference to `path` (creating folders). */
export function writeScenarioDocs(path: string, opts: DocsOptions): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, scenarioLanguageMarkdown(opts));
}
