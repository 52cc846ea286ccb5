// epee-compatible JSON parsing: a port of epee's portable_storage_from_json.h (+ parserse_base_utils),
// as salviumd and salvium-wallet-rpc read every HTTP body (the printer is json-print.ts).
// Parsing follows epee rather than RFC 8259 where the two differ, because the simulator must
// accept and refuse what the real servers accept and refuse:
//  * the document must be an object (after optional whitespace); an empty or whitespace-only
//    document is `{}`; anything after the closing `}` of the top-level object is ignored;
//  * input that ends while the top-level object is still open is accepted with what was read so
//    far (`{` -> {}, `{"method":"get_info"` -> {method:"get_info"}); but a string, number or
//    `true`/`false`/`null` running into the end of input is an error, and so is a nested object
//    left open (epee then rescans its contents at the outer level and trips over them);
//  * `null` values and empty arrays produce no key at all (epee's storage has no null and only
//    creates an array with its first element); `true`/`false`/`null` are case-insensitive;
//  * arrays hold one kind of element (objects, strings, numbers of one C type, or booleans);
//    arrays of arrays, `null` inside arrays and `[1,]` are errors; `{"a":1,}` is fine;
//  * numbers are lexed like epee (optional `-`, then a run of `0-9 . e E + -`) and converted
//    like strtoull/strtoll/strtod (longest valid prefix); integers outside uint64/int64 and
//    doubles that overflow or underflow are errors; values are kept exact in `RawNumber`;
//  * strings may hold raw control characters; escapes are \b \f \n \r \t \v \' \" \\ \/ and
//    \uXXXX (surrogate pairs combined, lone surrogates refused); other escapes yield the char;
//  * objects nest at most 100 deep (EPEE_JSON_RECURSION_LIMIT_INTERNAL).

import {
  classifyNumber,
  isParsedObject,
  RawNumber,
  type NumberKind,
  type Parsed,
  type ParsedObject,
} from './json-values.js';

export * from './json-values.js';

// ---- the parser ----

const RECURSION_LIMIT = 100;
class ParseFailure extends Error {}
const FAIL = new ParseFailure('epee JSON parse error');

const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
// lut flag 16: 0-9 . e E + -
const isNumberChar = (c: number): boolean =>
  isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
const hexValue = (c: number): number => {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
};

function setKey(obj: ParsedObject, key: string, value: Parsed): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

type ArrayMode = 'none' | 'objects' | 'strings' | 'numbers' | 'booleans';

const State = {
  SectionStart: 0,
  Name: 1,
  Separator: 2,
  AfterSeparator: 3,
  AfterValue: 4,
  ArrayStart: 5,
  ArrayAfterValue: 6,
  ArrayWaitingValue: 7,
} as const;
type State = (typeof State)[keyof typeof State];

class Parser {
  constructor(private readonly s: string) {}

  /** match_string2: `at` is the opening quote; returns [value, index of the closing quote]. */
  private string(at: number): [string, number] {
    const s = this.s;
    let out = '';
    let i = at + 1;
    let chunk = i;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        out += s.slice(chunk, i);
        return [out, i];
      }
      if (c !== 0x5c) continue;
      out += s.slice(chunk, i);
      i++;
      if (i >= s.length) throw FAIL;
      const e = s[i] as string;
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'v':
          out += '\v';
          break;
        case 'u': {
          const hi = this.hex4(i);
          i += 4;
          if (hi >= 0xd800 && hi <= 0xdbff) {
            if (s.charCodeAt(i + 1) !== 0x5c || s.charCodeAt(i + 2) !== 0x75) throw FAIL;
            const lo = this.hex4(i + 2);
            if (lo < 0xdc00 || lo > 0xdfff) throw FAIL;
            i += 6;
            out += String.fromCharCode(hi, lo);
          } else {
            if (hi >= 0xdc00 && hi <= 0xdfff) throw FAIL;
            out += String.fromCharCode(hi);
          }
          break;
        }
        default:
          // \' \" \\ \/ and any unknown escape: the character itself
          out += e;
      }
      chunk = i + 1;
    }
    throw FAIL; // end of input inside a string
  }

  /** Four hex digits after the `u` at index `u`. */
  private hex4(u: number): number {
    if (this.s.length - u < 5) throw FAIL;
    let v = 0;
    for (let k = 1; k <= 4; k++) {
      const h = hexValue(this.s.charCodeAt(u + k));
      if (h < 0) throw FAIL;
      v = (v << 4) | h;
    }
    return v;
  }

  /** match_number2: returns [token, index of its last character]. */
  private number(at: number): [RawNumber, number] {
    const s = this.s;
    let i = at;
    if (s.charCodeAt(i) === 0x2d) i++;
    while (i < s.length && isNumberChar(s.charCodeAt(i))) i++;
    if (i >= s.length) throw FAIL; // a number running into the end of input
    const text = s.slice(at, i);
    if (classifyNumber(text).outOfRange) throw FAIL;
    return [new RawNumber(text), i - 1];
  }

  /** match_word2: returns [lower-cased word, index of its last character]. */
  private word(at: number): [string, number] {
    const s = this.s;
    let i = at;
    while (i < s.length && isAlpha(s.charCodeAt(i))) i++;
    if (i >= s.length) throw FAIL;
    return [s.slice(at, i).toLowerCase(), i - 1];
  }

  /**
   * run_handler. `start.pos` is where scanning starts; it is set to the closing `}` when the object
   * ends there, and left alone when the input runs out (as epee does; see the header comment).
   */
  object(section: ParsedObject, start: { pos: number }, recursion: number): void {
    if (recursion >= RECURSION_LIMIT) throw FAIL;
    const f: Frame = {
      section,
      name: '',
      arr: null,
      mode: 'none',
      numberKind: 'uint',
      state: State.SectionStart,
      recursion,
    };
    for (let it = start.pos; it < this.s.length; it++) {
      const c = this.s.charCodeAt(it);
      const next = this.step(f, c, it);
      if (next === END) {
        start.pos = it;
        return;
      }
      it = next;
    }
    // end of input: accept what was read so far
  }

  /** One character in the object's state machine: the index reached, or END at its closing brace. */
  private step(f: Frame, c: number, it: number): number {
    switch (f.state) {
      case State.SectionStart:
        if (c === 0x7b) f.state = State.Name;
        else if (!isSpace(c)) throw FAIL;
        return it;
      case State.Name:
        if (c === 0x22) {
          [f.name, it] = this.string(it);
          f.state = State.Separator;
        } else if (c === 0x7d) return END;
        else if (!isSpace(c)) throw FAIL;
        return it;
      case State.Separator:
        if (c === 0x3a) f.state = State.AfterSeparator;
        else if (!isSpace(c)) throw FAIL;
        return it;
      case State.AfterSeparator:
        return this.value(f, c, it);
      case State.AfterValue:
        if (c === 0x2c) f.state = State.Name;
        else if (c === 0x7d) return END;
        else if (!isSpace(c)) throw FAIL;
        return it;
      case State.ArrayStart:
        return this.firstElement(f, c, it);
      case State.ArrayAfterValue:
        if (c === 0x2c) f.state = State.ArrayWaitingValue;
        else if (c === 0x5d) {
          f.arr = null;
          f.mode = 'none';
          f.state = State.AfterValue;
        } else if (!isSpace(c)) throw FAIL;
        return it;
      case State.ArrayWaitingValue:
        return isSpace(c) ? it : this.nextElement(f, c, it);
    }
    return it;
  }

  /** A nested object at `it`, read into `child`: the index of its closing brace. */
  private child(child: ParsedObject, it: number, recursion: number): number {
    const ref = { pos: it };
    this.object(child, ref, recursion + 1);
    return ref.pos;
  }

  /** A member's value after the colon. */
  private value(f: Frame, c: number, it: number): number {
    if (c === 0x22) {
      let v: string;
      [v, it] = this.string(it);
      setKey(f.section, f.name, v);
    } else if (isDigit(c) || c === 0x2d) {
      let v: RawNumber;
      [v, it] = this.number(it);
      setKey(f.section, f.name, v);
    } else if (isAlpha(c)) {
      let w: string;
      [w, it] = this.word(it);
      if (w === 'true') setKey(f.section, f.name, true);
      else if (w === 'false') setKey(f.section, f.name, false);
      else if (w !== 'null') throw FAIL; // null: no key
    } else if (c === 0x7b) {
      // open_section(name, create): an existing object under the same name is reused
      const existing = Object.prototype.hasOwnProperty.call(f.section, f.name) ? f.section[f.name] : undefined;
      const child: ParsedObject = isParsedObject(existing) ? existing : {};
      setKey(f.section, f.name, child);
      it = this.child(child, it, f.recursion);
    } else if (c === 0x5b) {
      f.state = State.ArrayStart;
      return it;
    } else if (!isSpace(c)) throw FAIL;
    else return it;
    f.state = State.AfterValue;
    return it;
  }

  /** An array's first element: it fixes the array's kind (objects, strings, numbers of one C type, booleans). */
  private firstElement(f: Frame, c: number, it: number): number {
    const start = (v: Parsed, mode: ArrayMode): void => {
      f.arr = [v];
      setKey(f.section, f.name, f.arr);
      f.mode = mode;
      f.state = State.ArrayAfterValue;
    };
    if (c === 0x5b) throw FAIL; // array of arrays
    if (c === 0x7b) {
      const child: ParsedObject = {};
      start(child, 'objects');
      return this.child(child, it, f.recursion);
    }
    if (c === 0x22) {
      let v: string;
      [v, it] = this.string(it);
      start(v, 'strings');
    } else if (isDigit(c) || c === 0x2d) {
      let v: RawNumber;
      [v, it] = this.number(it);
      start(v, 'numbers');
      f.numberKind = v.kind;
    } else if (c === 0x5d) {
      // empty array: no key
      f.mode = 'none';
      f.state = State.AfterValue;
    } else if (isAlpha(c)) {
      let w: string;
      [w, it] = this.word(it);
      if (w !== 'true' && w !== 'false') throw FAIL;
      start(w === 'true', 'booleans');
    } else if (!isSpace(c)) throw FAIL;
    return it;
  }

  /** A later element: of the array's kind, or the parse fails. */
  private nextElement(f: Frame, c: number, it: number): number {
    const arr = f.arr;
    if (arr === null) throw FAIL;
    if (f.mode === 'objects' && c === 0x7b) {
      const child: ParsedObject = {};
      arr.push(child);
      it = this.child(child, it, f.recursion);
    } else if (f.mode === 'strings' && c === 0x22) {
      let v: string;
      [v, it] = this.string(it);
      arr.push(v);
    } else if (f.mode === 'numbers' && (isDigit(c) || c === 0x2d)) {
      let v: RawNumber;
      [v, it] = this.number(it);
      // insert_next_value refuses a value of another C type than the first element
      if (v.kind !== f.numberKind) throw FAIL;
      arr.push(v);
    } else if (f.mode === 'booleans' && isAlpha(c)) {
      let w: string;
      [w, it] = this.word(it);
      if (w !== 'true' && w !== 'false') throw FAIL;
      arr.push(w === 'true');
    } else throw FAIL;
    f.state = State.ArrayAfterValue;
    return it;
  }
}

/** One object being read: its state, the member being read, the array being filled. */
interface Frame {
  section: ParsedObject;
  name: string;
  arr: Parsed[] | null;
  mode: ArrayMode;
  numberKind: NumberKind;
  state: State;
  recursion: number;
}

/** step(): the object ended at this index's closing brace. */
const END = -1;

/** Parse a request body the way epee's `load_from_json` does. The value is always an object. */
export function parseEpeeJson(text: string): { ok: true; value: Parsed } | { ok: false } {
  const root: ParsedObject = {};
  try {
    new Parser(text).object(root, { pos: 0 }, 0);
  } catch (err) {
    if (err instanceof ParseFailure || err instanceof RangeError) return { ok: false };
    throw err;
  }
  return { ok: true, value: root };
}

// ---------------------------------------------------------------------------------------------
// Printer
