// metadata: build a token metadata blob (from fields or a file) and serve it on 127.0.0.1; its url,
// sha256 and size become ${metadata.<name>.url|sha256|size}.
import { isPlainObject } from '../../common/plain-object.js';
import { z } from 'zod';
import type { SourcePos } from '../../common/locator.js';
import { FileRefused, metadataFileProblem, readMetadataFile } from '../files.js';
import { interpolate } from '../interpolate.js';
import { buildMetadata } from '../metadata.js';
import { nameLeaf } from '../schema/leaves.js';
import { ruleProblem } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import { fail, type StepContext } from './context.js';
import { defineStep } from './kind.js';

export interface MetadataAction {
  kind: 'metadata';
  name: string;
  fields?: Record<string, unknown>;
  file?: string;
  /** Where `file:` is written, for messages about it. */
  filePos?: SourcePos;
}

const schema = z
  .strictObject({
    name: nameLeaf('metadata name', 'rich'),
    fields: z.record(z.string(), z.unknown()).describe('the JSON fields of the blob').optional(),
    file: z
      .string()
      .min(1)
      .describe(
        "a JSON file with the blob (at most 1 MiB, in the scenario's folder or the working directory; relative to the scenario's folder, else to the working directory), e.g. ../fixtures/metadata/gold.json",
      )
      .optional(),
  })
  .describe(
    'build a metadata blob and serve it: {name, fields: {…}} or {name, file}; its url, sha256 and size become ${metadata.<name>.url|sha256|size}',
  )
  .meta({ oneOf: [{ required: ['fields'] }, { required: ['file'] }] });

/**
 * A metadata step's file, checked again as it is read (see files.ts); a refusal fails the step, at the line of `file:`.
 */
function metadataFile(ctx: StepContext, file: string, pos: SourcePos | undefined): Buffer {
  try {
    return readMetadataFile(file, { baseDir: ctx.baseDir, allowOutside: ctx.allowFilesOutside === true });
  } catch (e) {
    if (e instanceof FileRefused)
      return fail(metadataFileProblem(file, e.message), { path: 'metadata.file', ...(pos ? { pos } : {}) });
    throw e;
  }
}

export const metadataStep = defineStep<'metadata', MetadataAction>({
  key: 'metadata',
  schema,
  answersRpc: false,
  build(v, at) {
    const o = v as Record<string, unknown>;
    const a: MetadataAction = { kind: 'metadata', name: o.name as string };
    if (o.fields !== undefined) a.fields = o.fields as Record<string, unknown>;
    if (o.file !== undefined) {
      a.file = o.file as string;
      a.filePos = at(['file']);
    }
    return a;
  },
  defaultName: (a) => `metadata ${a.name}`,
  check(ctx, v, path) {
    if (!isPlainObject(v)) return;
    if (has(v, 'fields') && has(v, 'file'))
      ruleProblem(
        ctx,
        [...path, 'file'],
        'key',
        'give either fields or file, not both',
        '{name, fields: {…}} or {name, file}',
      );
    else if (!has(v, 'fields') && !has(v, 'file'))
      ruleProblem(
        ctx,
        [...path, 'fields'],
        'parent',
        'missing "fields" (or "file")',
        '{name, fields: {…}} or {name, file}',
      );
  },
  async run(ctx, _step, a) {
    const body = a.file
      ? metadataFile(ctx, a.file, a.filePos)
      : buildMetadata(interpolate(a.fields ?? {}, ctx.scope) as Record<string, unknown>);
    const hosted = (await ctx.metadata()).host(a.name, body);
    const all = (ctx.scope.metadata ??= {}) as Record<string, unknown>;
    all[a.name] = hosted;
    return {
      request: { metadata: a.name, ...(a.file ? { file: a.file } : { fields: a.fields }) },
      response: { result: hosted },
    };
  },
  docs: {
    note: 'Builds a JSON blob (from `fields`, or from a `file` found relative to the scenario file, then to the working directory) and serves it over HTTP on 127.0.0.1 for the rest of the run. `${metadata.<name>.url}`, `.sha256` and `.size` are exactly what is served; `create_token: { …, metadata: <name> }` uses them.',
  },
});
