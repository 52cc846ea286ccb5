// The one plain-object check: mappings as YAML, JSON and object literals make them, from any realm (vitest's VM
// pools run a test file's code in a context of its own), and nothing else.
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { isPlainObject } from '../../harness/common/plain-object.js';

it('takes object literals (of any realm) and null-prototype objects; refuses arrays, dates, maps, class instances', () => {
  class Thing {}
  const yes = [{}, { a: 1 }, Object.create(null), runInNewContext('({ a: 1 })'), JSON.parse('{"b":2}')];
  const no = [[], new Date(), new Map(), new Thing(), new Uint8Array(2), runInNewContext('[1]'), null, 'x', 1];
  expect(yes.map(isPlainObject)).toEqual(yes.map(() => true));
  expect(no.map(isPlainObject)).toEqual(no.map(() => false));
});
