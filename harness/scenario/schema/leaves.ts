// Leaves: values with hand-written checks, messages and JSON Schema (amounts, whole numbers, names,
// response paths, endpoints), shared by the step kinds' schemas.
import { z } from 'zod';
import { isPlainObject } from '../../common/plain-object.js';
import { AMOUNT_FORMS, amountError, parseAmount } from '../../coin/amounts.js';
import { describeValue } from '../../common/describe.js';
import { parsePath, type PathSegment } from '../../common/path.js';
import { suggest } from '../../common/suggest.js';
import { NODE_NAME } from '../../network/topology.js';
import { isTemplateString } from '../interpolate.js';
import { amountPattern, assetPattern, NAME_RE, RESPONSE_ROOTS, didYouMean, showShort } from './vocabulary.js';

/** A problem inside one value, relative to it. */
export interface LeafIssue {
  path?: PathSegment[];
  at?: 'key' | 'value';
  message: string;
  expected?: string;
}
type LeafCheck = (v: unknown) => LeafIssue[] | LeafIssue | undefined;

/** A value validated by `check`; undefined (a missing key) is reported as missing. */
export function leaf(
  description: string,
  json: Record<string, unknown>,
  check: LeafCheck,
  transform?: (v: unknown) => unknown,
): z.ZodType {
  const base = z.unknown().superRefine((v, ctx) => {
    if (v === undefined) {
      ctx.addIssue({ code: 'custom', message: 'missing', params: { missing: true, expected: description } });
      return;
    }
    const r = check(v);
    for (const i of r === undefined ? [] : Array.isArray(r) ? r : [r]) {
      ctx.addIssue({
        code: 'custom',
        message: i.message,
        path: i.path ?? [],
        params: { expected: i.expected ?? description, at: i.at ?? 'value' },
      });
    }
  });
  const s = transform ? base.transform(transform) : base;
  return s.meta({ description, ...json });
}

const TEMPLATE_PATTERN = '\\$\\{';
const PLACEHOLDER_NOTE = 'or a "${…}" placeholder';

/** An amount (converted to bigint); with `templates`, a string holding `${…}` is kept as written. */
export function amountLeaf(templates: boolean): z.ZodType {
  const description = templates ? `${AMOUNT_FORMS}, ${PLACEHOLDER_NOTE}` : AMOUNT_FORMS;
  return leaf(
    description,
    {
      anyOf: [
        { type: 'integer', minimum: 0 },
        { type: 'string', pattern: templates ? `${amountPattern()}|${TEMPLATE_PATTERN}` : amountPattern() },
      ],
    },
    (v) => {
      if (templates && isTemplateString(v)) return undefined;
      const err = amountError(v);
      return err ? { message: `${showShort(v)} is not an amount: ${err}` } : undefined;
    },
    (v) => (templates && isTemplateString(v) ? v : parseAmount(v)),
  );
}

/** A whole number (number, bigint or string of digits, or a placeholder), kept as written. */
export function integerLeaf(what: string): z.ZodType {
  const description = `${what}: a whole number (a quoted string of digits for very large ones) ${PLACEHOLDER_NOTE}`;
  return leaf(
    description,
    { anyOf: [{ type: 'integer' }, { type: 'string', pattern: `^-?\\d+$|${TEMPLATE_PATTERN}` }] },
    (v) => {
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return undefined;
      if (typeof v === 'string' && (/^-?\d+$/.test(v.trim()) || isTemplateString(v))) return undefined;
      return { message: `expected a whole number, got ${describeValue(v)}` };
    },
  );
}

export function nameLeaf(what: string, example: string): z.ZodType {
  const description = `a ${what}: letters, digits and _, not starting with a digit (e.g. ${example})`;
  return leaf(description, { type: 'string', pattern: NAME_RE.source }, (v) => {
    if (typeof v !== 'string') return { message: `expected a ${what}, got ${describeValue(v)}` };
    if (isTemplateString(v))
      return { message: `a "\${…}" placeholder cannot be used as a ${what}: write the name out` };
    if (!NAME_RE.test(v)) return { message: `${JSON.stringify(v)} is not a valid ${what}` };
    return undefined;
  });
}

/** A node name (n0, n1, …); whether the scenario has that node is the rules' business (nodes: N). */
export const nodeLeaf = leaf(
  'a node name: n0, n1, … (nodes: N gives n0 to n<N-1>)',
  { type: 'string', pattern: NODE_NAME.source },
  (v) => {
    if (typeof v !== 'string') return { message: `expected a node name (n0, n1, …), got ${describeValue(v)}` };
    if (!NODE_NAME.test(v)) return { message: `${JSON.stringify(v)} is not a node name: nodes are named n0, n1, …` };
    return undefined;
  },
);

export function responsePathProblem(p: string): string | undefined {
  let segs: PathSegment[];
  try {
    segs = parsePath(p);
  } catch (e) {
    return (e as Error).message;
  }
  const root = segs[0];
  if (root !== 'result' && root !== 'error') {
    return `${JSON.stringify(p)} must start at result or error (the response is {result: …} or {error: …})${didYouMean(typeof root === 'string' ? suggest(root, RESPONSE_ROOTS) : undefined)}`;
  }
  return undefined;
}

export const RESPONSE_PATH_EXPECTED =
  'a path into the response starting at result or error, e.g. result.tx_hash, result.balances[0].unlocked_balance, result["token.version"]';

export const responsePathLeaf = leaf(
  RESPONSE_PATH_EXPECTED,
  { type: 'string', pattern: '^(result|error)([.\\[]|$)' },
  (v) => {
    if (typeof v !== 'string') return { message: `expected a path string, got ${describeValue(v)}` };
    const p = responsePathProblem(v);
    return p ? { message: p } : undefined;
  },
);

export const httpPathLeaf = leaf(
  'a daemon HTTP endpoint starting with /, e.g. /get_height',
  { type: 'string', pattern: '^/' },
  (v) => {
    if (typeof v !== 'string') return { message: `expected an endpoint path, got ${describeValue(v)}` };
    if (!v.startsWith('/') && !isTemplateString(v))
      return { message: `${JSON.stringify(v)} must start with / (e.g. /get_info)` };
    return undefined;
  },
);

export const assetAmounts = (whose: string) =>
  z
    .record(z.string(), amountLeaf(false))
    .describe(`${whose}: asset (SAL1, SAL, XMR or a token such as salABCD) → amount, e.g. {SAL1: "1100 SAL1"}`)
    .meta({ propertyNames: { pattern: assetPattern() } });

const RAW_PARAMS_EXAMPLE: Record<string, string> = {
  get_transfers: '{in: true, pending: true}',
  get_tokens: '{regex: ABCD}',
};
export const rawParams = (method: string) =>
  z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      `${method} request parameters, sent as written (e.g. ${RAW_PARAMS_EXAMPLE[method] ?? '{asset_type: SAL1}'}); may be empty`,
    );

export const addressText = 'a destination address, usually a placeholder such as "${bob.address}"';

/** A ticker as `tokens:` keys take it: what the wallet makes of one (create_token upper-cases it). */
export const TICKER_RE = /^[A-Z0-9]{4}$/;
const TOKEN_FIELDS = ['supply', 'name'];
const TOKEN_EXAMPLE = '{supply: 100, name: demo}';
const TOKENS_EXAMPLE = '{ABCD: {supply: 100, name: demo}}';

function heldTokenIssues(v: unknown): LeafIssue[] {
  if (!isPlainObject(v))
    return [{ message: `expected a mapping of tickers, got ${describeValue(v)}`, expected: TOKENS_EXAMPLE }];
  return Object.entries(v).flatMap(([ticker, d]): LeafIssue[] => {
    if (!TICKER_RE.test(ticker)) {
      const hint = /^[a-z0-9]{4}$/i.test(ticker) ? ` (write ${ticker.toUpperCase()})` : '';
      return [
        {
          path: [ticker],
          at: 'key',
          message: `"${ticker}" is not a ticker: 4 characters A–Z 0–9${hint}`,
          expected: 'a ticker, e.g. ABCD',
        },
      ];
    }
    if (!isPlainObject(d))
      return [
        { path: [ticker], message: `expected {supply, name?}, got ${describeValue(d)}`, expected: TOKEN_EXAMPLE },
      ];
    const issues: LeafIssue[] = Object.keys(d)
      .filter((k) => !TOKEN_FIELDS.includes(k))
      .map((k) => ({
        path: [ticker, k],
        at: 'key',
        message: `unknown key "${k}"${didYouMean(suggest(k, TOKEN_FIELDS))}`,
        expected: 'supply or name',
      }));
    const supply = d.supply;
    if (supply === undefined)
      issues.push({ path: [ticker], message: 'missing "supply" (whole tokens)', expected: TOKEN_EXAMPLE });
    else if (!(typeof supply === 'number' && Number.isSafeInteger(supply) && supply > 0))
      issues.push({
        path: [ticker, 'supply'],
        message: `expected a whole number above 0, got ${describeValue(supply)}`,
        expected: 'whole tokens, e.g. 100',
      });
    if (d.name !== undefined && typeof d.name !== 'string')
      issues.push({
        path: [ticker, 'name'],
        message: `expected text, got ${describeValue(d.name)}`,
        expected: 'a name',
      });
    return issues;
  });
}

/** `tokens:` of `requires` or a wallet: tokens the wallet created before the steps, ticker → {supply, name?}. */
export const heldTokensSchema = (whose: string): z.ZodType =>
  leaf(
    `${whose}: ticker → {supply, name?}, e.g. {ABCD: {supply: 100, name: demo}}`,
    {
      type: 'object',
      propertyNames: { pattern: TICKER_RE.source },
      additionalProperties: {
        type: 'object',
        required: ['supply'],
        additionalProperties: false,
        properties: { supply: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
      },
    },
    heldTokenIssues,
  );
