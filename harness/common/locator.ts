// Paths into a parsed YAML (or JSON) document → file, line and column: scenario files and config
// files point their problems at the key or value that holds them.
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node as YamlNode } from 'yaml';
import type { PathSegment } from './path.js';

/** A position in a file, for error messages: 1-based line and column. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

/** Point at the key at a path, its value, or (missing keys) the object that should hold it. */
export type PathAnchor = 'key' | 'value' | 'parent';

/** Paths into a parsed YAML (or JSON) document → file, line and column. */
export class Locator {
  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  pos(offset: number | undefined): SourcePos {
    if (offset === undefined) return { file: this.file, line: 1, col: 1 };
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, col };
  }

  private deref(n: unknown): unknown {
    return isAlias(n) ? n.resolve(this.doc) : n;
  }

  /** The node at `path` (or the deepest one that exists) and, when it is a map value, its key. */
  private walk(path: readonly PathSegment[]): { node: unknown; key?: unknown; complete: boolean } {
    let node: unknown = this.doc.contents;
    let key: unknown;
    for (const seg of path) {
      const cur = this.deref(node);
      if (isMap(cur)) {
        const pair = cur.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
        if (!pair) return { node: cur, key, complete: false };
        key = pair.key;
        node = pair.value ?? pair.key;
      } else if (isSeq(cur) && typeof seg === 'number' && seg < cur.items.length) {
        key = undefined;
        node = cur.items[seg];
      } else {
        return { node: cur, key, complete: false };
      }
    }
    return { node, key, complete: true };
  }

  private start(n: unknown): number | undefined {
    const r = (n as YamlNode | undefined)?.range;
    return r ? r[0] : undefined;
  }

  locate(path: readonly PathSegment[], at: PathAnchor): SourcePos {
    if (at === 'parent') return this.pos(this.start(this.walk(path.slice(0, -1)).node));
    const w = this.walk(path);
    if (at === 'key' && w.complete && w.key) return this.pos(this.start(w.key));
    return this.pos(this.start(w.node) ?? this.start(w.key));
  }
}

function keyText(k: unknown): string | undefined {
  if (isScalar(k)) return String(k.value);
  return k === null || k === undefined ? undefined : String(k);
}
