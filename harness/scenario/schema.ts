// The scenario file format: the document's zod schema (each step kind brings its own: steps/), its
// validation into problems located by path, and its JSON Schema for editors. The parts live in
// schema/: vocabulary, leaves, matchers, zod-issue translation, the rules beyond the structure.
//
// Validation here is position-free: every problem carries a path into the parsed document and says
// whether it is about the key, the value, or the object that lacks a key. parse.ts turns paths into
// line and column.
import { writeFileSync } from 'node:fs';
import { isPlainObject } from '../common/plain-object.js';
import { dirname } from 'node:path';
import { z } from 'zod';
import { describeValue } from '../common/describe.js';
import { formatPath, type PathSegment } from '../common/path.js';
import { backendNameSchema, backendNames } from '../coin/backends.js';
import { MAX_HEIGHT, MAX_PROBLEMS_COLLECTED, sizeProblems } from './bounds.js';
import { limitProblems } from './limit-checks.js';
import { MAX_NODES } from '../limits.js';
import { SCOPE_ROOTS } from './interpolate.js';
import { describeSchema, problemsFromIssue, schemaAtIn, type AnySchema } from './schema/issues.js';
import { assetAmounts, heldTokensSchema, nameLeaf, nodeLeaf, responsePathLeaf } from './schema/leaves.js';
import { MATCHER_JSON, errorMessageLeaf, expectations } from './schema/matchers.js';
import { checkRules } from './schema/rules.js';
import type { SchemaProblem } from './schema/problem.js';
import { NAME_RE, RESERVED_WALLET_NAMES, STEP_COMMON_KEYS } from './schema/vocabulary.js';
import { ACTION_KEYS, kindsVersion, STEP_KINDS } from './steps/registry.js';
import { makeDirs } from '../common/mkdir.js';

export { suggest } from '../common/suggest.js';
export { MATCHER_EXPECTED, matcherIssues } from './schema/matchers.js';
export type { LeafIssue } from './schema/leaves.js';
export { checkRules } from './schema/rules.js';
export type { SchemaProblem } from './schema/problem.js';
export { assetPattern, NAME_RE, RESERVED_WALLET_NAMES, RESPONSE_ROOTS, STEP_COMMON_KEYS } from './schema/vocabulary.js';
export { ACTION_KEYS, KNOWN_PARAMS, WALLET_METHODS, type ActionKey } from './steps/registry.js';

const expectError = z
  .strictObject({
    code: z.int().describe('the JSON-RPC error code, e.g. -7').optional(),
    message: errorMessageLeaf.optional(),
  })
  .nullable()
  .describe('the step must answer an error: {code?, message?} ({} for any error)');

const save = z
  .record(z.string(), responsePathLeaf)
  .describe('values to save for later ${…}: name → response path, e.g. {tx: result.tx_hash}')
  .meta({ propertyNames: { pattern: NAME_RE.source, not: { enum: [...SCOPE_ROOTS, 'main'] } } });

/** A scenario's `wallets:` — extra wallets besides main. */
const walletsSchema = (): z.ZodType =>
  z
    .record(
      z.string(),
      z
        .strictObject({
          unlocked: assetAmounts(
            'unlocked amounts funded from main before the steps (a token: from the wallet that makes it)',
          ).optional(),
          tokens: heldTokensSchema(
            'tokens the wallet created before the steps, each supply unlocked (its cost is funded on top of unlocked)',
          ).optional(),
          node: nodeLeaf.describe('the node its wallet RPC talks to (default n0)').optional(),
        })
        .nullable()
        .describe('a wallet declaration: {} or {unlocked: {SAL1: "10 SAL1"}, tokens: {ABCD: {supply: 100}}, node: n1}'),
    )
    .describe('extra wallets besides main: name → {} or {unlocked: {SAL1: "10 SAL1"}}')
    .meta({ propertyNames: { pattern: NAME_RE.source, not: { enum: [...RESERVED_WALLET_NAMES] } } })
    .optional();

/** The file's schema for the step kinds there are now (STEP_KINDS: registered ones included). */
function buildSchema(): z.ZodType {
  const stepShape = {
    name: z.string().describe('a title for reports').optional(),
    wallet: nameLeaf('wallet name', 'bob')
      .describe('the wallet that runs this step: main (default) or a declared wallet')
      .optional(),
    node: nodeLeaf
      .describe(
        'the node whose daemon answers the step (call on the daemon, restart: daemon, log of the daemon): n0 (default), n1, …',
      )
      .optional(),
    expect: expectations
      .describe(
        'expectations on what the step answered (any step kind: a wait its last answer, mine {result: {height}}, snapshot/revert {result: {height}})',
      )
      .optional(),
    expect_error: expectError.describe('the error answer the call must give (call and wallet methods only)').optional(),
    save: save.optional(),
    ...Object.fromEntries(STEP_KINDS.map((k) => [k.key, k.schema.optional()])),
  };

  const stepSchema = z
    .strictObject(stepShape)
    .describe(`a step: exactly one action (${ACTION_KEYS.join(', ')}) plus optional ${STEP_COMMON_KEYS.join(', ')}`)
    .meta({ oneOf: ACTION_KEYS.map((k) => ({ required: [k] })) });

  const scenarioSchema = z
    .strictObject({
      name: z.string().min(1).describe("the scenario's title"),
      description: z.string().describe('what the scenario checks and why').optional(),
      tags: z.array(z.string()).describe('tags for selecting scenarios, e.g. [tokens]').optional(),
      backends: z
        .array(backendNameSchema({ auto: false }))
        .min(1)
        .describe(`backends the scenario is written for (${backendNames().join(', ')}); default: any`)
        .optional(),
      nodes: z
        .int()
        .min(1)
        .max(MAX_NODES)
        .describe(
          'daemons n0, n1, … joined by links (partition, heal, sync); default 1. A scenario of several nodes runs on a testnet of its own',
        )
        .optional(),
      requires: z
        .strictObject({
          height: z.int().min(0).max(MAX_HEIGHT).describe('minimum chain height before the steps').optional(),
          unlocked: assetAmounts('unlocked amounts the main wallet must hold before the steps').optional(),
          tokens: heldTokensSchema(
            'tokens the main wallet created before the steps, each supply unlocked (their cost is funded on top of unlocked; in a shared run above difficulty 1 they are made in the cached chain at difficulty 1)',
          ).optional(),
        })
        .describe(
          'what must hold before the steps: {height?, unlocked?: {SAL1: "1100 SAL1"}, tokens?: {ABCD: {supply: 100}}}',
        )
        .optional(),
      wallets: walletsSchema(),
      steps: z.array(stepSchema).min(1).describe('the steps, run in order (at least one)'),
      artifacts: z
        .strictObject({
          keep_secrets: z
            .boolean()
            .describe(
              'keep the wallet secrets the steps send or get back (query_key answers, seeds, keys, passwords, multisig key exchange) in the artifacts and reports; default false: each is replaced by <redacted METHOD FIELD>',
            )
            .optional(),
        })
        .describe('what the run keeps in its artifacts: {keep_secrets?: true}')
        .optional(),
    })
    .describe(
      'a saltnet scenario: name, steps and optional description, tags, backends, nodes, requires, wallets, artifacts',
    );
  return scenarioSchema;
}

let built: { version: number; schema: z.ZodType } | undefined;
/** The file's schema, rebuilt when a step kind was added or removed since. */
export function scenarioSchema(): z.ZodType {
  if (!built || built.version !== kindsVersion()) built = { version: kindsVersion(), schema: buildSchema() };
  return built.schema;
}

/** The schema at a path into a scenario document (undefined where there is none). */
export function schemaAt(path: readonly PathSegment[], root: AnySchema = scenarioSchema()): AnySchema | undefined {
  return schemaAtIn(path, root);
}

/** The validated document: amounts as bigints (placeholders kept), everything else as written. */
export type ValidatedDocument = Record<string, unknown>;

/**
 * Validate a parsed document (YAML or JSON data): every problem, each located by path — up to
 * MAX_PROBLEMS_COLLECTED of them (then `truncated`), and only the size problems of a document with
 * too many steps or wallets.
 */
export function validateDocument(doc: unknown): {
  value?: ValidatedDocument;
  problems: SchemaProblem[];
  truncated?: boolean;
} {
  if (!isPlainObject(doc)) {
    return {
      problems: [
        {
          path: [],
          at: 'value',
          message: `a scenario file is a mapping (name: …, steps: …), this is ${describeValue(doc)}`,
          expected: describeSchema(scenarioSchema()),
        },
      ],
    };
  }
  const tooBig = sizeProblems(doc);
  if (tooBig.length) return { problems: tooBig };
  const r = scenarioSchema().safeParse(doc, { reportInput: true });
  const problems: SchemaProblem[] = [];
  for (const iss of r.success ? [] : r.error.issues)
    if (problems.length < MAX_PROBLEMS_COLLECTED) problems.push(...problemsFromIssue(iss, [], scenarioSchema()));
  problems.push(...checkRules(doc), ...limitProblems(doc));
  // One report per place and message.
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = `${formatPath(p.path)}\u0000${p.at}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (unique.length >= MAX_PROBLEMS_COLLECTED)
    return { problems: unique.slice(0, MAX_PROBLEMS_COLLECTED), truncated: true };
  return unique.length ? { problems: unique } : { value: r.data as ValidatedDocument, problems: [] };
}

/** JSON Schema (draft 2020-12) of the file format, with descriptions, for editors. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const js = z.toJSONSchema(scenarioSchema(), {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    reused: 'inline',
  }) as Record<string, unknown>;
  const defs = (js.$defs ?? {}) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://saltnet.dev/schema/scenario.json',
    title: 'saltnet scenario',
    ...js,
    $defs: { ...defs, matcher: MATCHER_JSON },
  };
}

/** Write the JSON Schema to `path` (for editor settings such as yaml.schemas), creating folders. */
export function writeJsonSchema(path: string): void {
  makeDirs(dirname(path));
  writeFileSync(path, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
}
