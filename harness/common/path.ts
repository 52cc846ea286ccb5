// Dot-and-bracket paths shared by expectations (`result.balances[0].unlocked_balance`), `save`
// and `${…}` placeholders: `a.b`, `a[0]`, `a["key.with.dots"]`, `a['x']`.

export type PathSegment = string | number;

const NAME_CHAR = /[^.[\]\s"'`]/;

/** Parse a path into segments; throws an Error saying what is wrong and where. */
export function parsePath(path: string): PathSegment[] {
  const segs: PathSegment[] = [];
  const n = path.length;
  if (n === 0) throw new Error('empty path');
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`bad path ${JSON.stringify(path)}: ${what} at character ${i + 1}`);
  };
  const readName = (): string => {
    const start = i;
    while (i < n && NAME_CHAR.test(path[i]!)) i++;
    if (i === start) fail(i < n ? `unexpected ${JSON.stringify(path[i])}` : 'missing name');
    return path.slice(start, i);
  };
  while (i < n) {
    const c = path[i]!;
    if (c === '[') {
      i++;
      const q = path[i];
      if (q === '"' || q === "'") {
        i++;
        let s = '';
        for (;;) {
          if (i >= n) fail('unterminated quoted key');
          const ch = path[i]!;
          if (ch === '\\') {
            if (i + 1 >= n) fail('unterminated quoted key');
            s += path[i + 1]!;
            i += 2;
          } else if (ch === q) {
            i++;
            break;
          } else {
            s += ch;
            i++;
          }
        }
        segs.push(s);
      } else {
        const start = i;
        while (i < n && path[i]! >= '0' && path[i]! <= '9') i++;
        if (i === start) fail('expected an index like [0] or a quoted key like ["a.b"]');
        segs.push(Number(path.slice(start, i)));
      }
      if (path[i] !== ']') fail('expected ]');
      i++;
    } else if (c === '.') {
      if (segs.length === 0) fail('a path cannot start with "."');
      i++;
      segs.push(readName());
    } else {
      if (segs.length > 0) fail(`expected "." or "[" before ${JSON.stringify(c)}`);
      segs.push(readName());
    }
  }
  return segs;
}

const PLAIN = /^[^.[\]\s"'`]+$/;

/** Segments back to text: `steps[3].transfer.amount`, `expect["result.tokens"]`. */
export function formatPath(segs: readonly PathSegment[]): string {
  let out = '';
  for (const s of segs) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN.test(s) && !/^\d+$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
