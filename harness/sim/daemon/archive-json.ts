// JSON text as the real daemon's json_archive writes a block or a transaction (get_block's `json`,
// /get_transactions' `as_json`, the pool's `tx_json`): keys in the order given, `", "` before each
// line break, two spaces of indentation per level, `[ ` to open a list, and a line break before its
// `]` only when the list was opened with a size (json_archive::begin_array(size)) — RingCT's lists
// are opened without one. Like json_archive, the "size" is one value for the whole writer: a list
// inside a list decides how the outer one closes.

/** A list that json_archive opens without a size (RingCT data): it closes with `]` on the same line. */
export class Unsized<T = unknown> {
  constructor(readonly items: readonly T[]) {}
}

/** Mark a list as one opened without a size. */
export const unsized = <T>(items: readonly T[]): Unsized<T> => new Unsized(items);

class Writer {
  out = '';
  private depth = 0;
  private objectBegin = false;
  private innerArraySize = 0;

  private indent(): void {
    this.out += `\n${'  '.repeat(this.depth)}`;
  }

  value(v: unknown): void {
    if (v instanceof Unsized) return this.array(v.items, false);
    if (Array.isArray(v)) return this.array(v, true);
    if (typeof v === 'object' && v !== null) return this.object(v as Record<string, unknown>);
    if (typeof v === 'string') this.out += JSON.stringify(v);
    else if (typeof v === 'bigint' || typeof v === 'number') this.out += v.toString();
    else if (typeof v === 'boolean') this.out += v ? 'true' : 'false';
    else this.out += 'null';
  }

  private object(o: Record<string, unknown>): void {
    this.out += '{';
    this.depth++;
    this.objectBegin = true;
    for (const [k, v] of Object.entries(o)) {
      if (v === undefined) continue;
      if (!this.objectBegin) this.out += ', ';
      this.indent();
      this.out += `"${k}": `;
      this.objectBegin = false;
      this.value(v);
    }
    this.depth--;
    this.indent();
    this.out += '}';
  }

  private array(items: readonly unknown[], sized: boolean): void {
    this.innerArraySize = sized ? items.length : 0;
    this.depth++;
    this.out += '[ ';
    items.forEach((item, i) => {
      if (i > 0) this.out += ', ';
      this.value(item);
    });
    this.depth--;
    if (this.innerArraySize > 0) this.indent();
    this.out += ']';
  }
}

/** `obj_to_json_str`: the value as json_archive writes it with indentation. */
export function archiveJson(value: Record<string, unknown>): string {
  const w = new Writer();
  w.value(value);
  return w.out;
}
