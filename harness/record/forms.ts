import { recordedForm } from '../scenario/steps/registry.js';
import { isPlainObject } from '../common/plain-object.js';
import type { BackendSpec } from '../coin/backends.js';
import type { RecordedCall } from './types.js';

/** A step's action: its key (the step kind) and its value. */
export interface ActionDraft {
  key: string;
  value: Record<string, unknown>;
}

/** A readable wallet form for the call when one sends exactly its request again (the form's own fromRecorded). */
function readableWallet(c: RecordedCall, spec: BackendSpec): ActionDraft | undefined {
  return isPlainObject(c.params) ? recordedForm(c.method!, c.params, spec) : undefined;
}

/** The step action for a recorded call; `readable: false` forces `call`. */
export function draftAction(c: RecordedCall, spec: BackendSpec, readable = true): ActionDraft {
  const hasParams = !(isPlainObject(c.params) && Object.keys(c.params).length === 0) && c.params !== undefined;
  const params = hasParams ? { params: c.params } : {};
  if (c.on === 'daemon')
    return { key: 'call', value: c.path ? { path: c.path, ...params } : { on: 'daemon', method: c.method, ...params } };
  const r = readable ? readableWallet(c, spec) : undefined;
  return r ?? { key: 'call', value: { method: c.method, ...params } };
}
