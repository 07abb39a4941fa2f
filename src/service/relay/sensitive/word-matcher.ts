/**
 * Aho–Corasick over UTF-16 code units, compiled to a dense automaton: every state has a transition for every
 * character the words use (an alphabet of those characters, upper and lower case in one column, every other
 * character in column 0), so a scan is one table read per character and no failure links are followed at run
 * time. A target that completes a word is stored negative (−1 − target), so "is there a word" is one sign test.
 *
 * A dictionary whose dense automaton would pass DENSE_LIMIT entries (thousands of words in a script with many
 * characters, such as Chinese) keeps the sparse trie with failure links instead: slower, memory in proportion.
 *
 * Why not a package from npm: the maintained ones measured 20–200 µs for a 2 KB prompt against 1000 words
 * (grapheme segmentation per call, or a Map per state); the relay's budget is 5 µs (bench/sensitive-words.ts).
 */
export class WordMatcher {
  private readonly columns = new Uint16Array(65536);
  private readonly width: number;
  /** Row-major, rows premultiplied by `width`; negative: a word ends in the target. Empty when sparse. */
  private readonly table: Int32Array;
  /** Per state: the length of the longest word ending in it (0: none). */
  private readonly longest: Uint16Array;
  /** The sparse form: per state its edges by column, and its failure state. */
  private readonly sparse?: { edges: Map<number, number>[]; fail: Int32Array };

  /** The dense automaton's size at the most (entries, 4 bytes each). */
  static readonly DENSE_LIMIT = 8 * 1024 * 1024;

  constructor(words: readonly string[]) {
    const trie: Map<number, number>[] = [new Map()];
    const ends: number[] = [0];
    for (const word of words) {
      const folded = word.toLowerCase();
      let state = 0;
      for (let i = 0; i < folded.length; i++) {
        const unit = folded.charCodeAt(i);
        let next = trie[state]!.get(unit);
        if (next === undefined) {
          next = trie.length;
          trie.push(new Map());
          ends.push(0);
          trie[state]!.set(unit, next);
        }
        state = next;
      }
      if (state !== 0) ends[state] = Math.max(ends[state]!, folded.length);
    }
    let width = 1;
    for (const edges of trie) {
      for (const unit of edges.keys()) {
        if (this.columns[unit]) continue;
        this.columns[unit] = width;
        const upper = String.fromCharCode(unit).toUpperCase();
        if (upper.length === 1 && !this.columns[upper.charCodeAt(0)]) this.columns[upper.charCodeAt(0)] = width;
        width++;
      }
    }
    this.width = width;
    this.longest = new Uint16Array(trie.length);
    if (trie.length * width > WordMatcher.DENSE_LIMIT) {
      this.table = new Int32Array(0);
      this.sparse = this.linkFailures(trie, ends);
      return;
    }
    this.table = new Int32Array(trie.length * width);
    this.compile(trie, ends);
  }

  /** The sparse form: edges keyed by column, failure links breadth first. */
  private linkFailures(trie: Map<number, number>[], ends: number[]) {
    const edges = trie.map((m) => new Map([...m].map(([unit, next]) => [this.columns[unit]!, next])));
    const fail = new Int32Array(trie.length);
    const queue = [...edges[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      this.longest[state] = Math.max(ends[state]!, this.longest[fail[state]!]!);
      for (const [column, next] of edges[state]!) {
        fail[next] = state === 0 ? 0 : this.step(edges, fail, fail[state]!, column);
        queue.push(next);
      }
    }
    return { edges, fail };
  }

  private step(edges: Map<number, number>[], fail: Int32Array, state: number, column: number): number {
    let at = state;
    for (;;) {
      const next = edges[at]!.get(column);
      if (next !== undefined) return next;
      if (at === 0) return 0;
      at = fail[at]!;
    }
  }

  /** The sparse scan: calls `found(end, length)` for each position where a word ends; stops when it answers true. */
  private scanSparse(text: string, found: (end: number, length: number) => boolean): void {
    const { edges, fail } = this.sparse!;
    let at = 0;
    for (let i = 0; i < text.length; i++) {
      at = this.step(edges, fail, at, this.columns[text.charCodeAt(i)]!);
      const length = this.longest[at]!;
      if (length > 0 && found(i, length)) return;
    }
  }

  /** Breadth first: a state's row starts as its failure state's row, then its own edges override it. */
  private compile(trie: Map<number, number>[], ends: number[]): void {
    const { table, width, columns, longest } = this;
    const fail = new Int32Array(trie.length);
    const queue: number[] = [];
    for (const [unit, next] of trie[0]!) {
      table[columns[unit]!] = next * width;
      queue.push(next);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const failure = fail[state]!;
      longest[state] = Math.max(ends[state]!, longest[failure]!);
      table.copyWithin(state * width, failure * width, failure * width + width);
      for (const [unit, next] of trie[state]!) {
        const column = columns[unit]!;
        fail[next] = table[failure * width + column]! / width;
        table[state * width + column] = next * width;
        queue.push(next);
      }
    }
    for (let i = 0; i < table.length; i++) {
      if (longest[table[i]! / width]! > 0) table[i] = -1 - table[i]!;
    }
  }

  /** Whether any word occurs in `text`, case-insensitively. */
  has(text: string): boolean {
    if (this.sparse) {
      let hit = false;
      this.scanSparse(text, () => (hit = true));
      return hit;
    }
    const { table, columns } = this;
    let at = 0;
    for (let i = 0; i < text.length; i++) {
      at = table[at + columns[text.charCodeAt(i)]!]!;
      if (at < 0) return true;
    }
    return false;
  }

  /** `text` with every occurrence of a word replaced by as many asterisks; the same string when there is none. */
  mask(text: string): string {
    let hidden: Uint8Array | undefined;
    const hide = (end: number, length: number) => {
      hidden ??= new Uint8Array(text.length);
      hidden.fill(1, end + 1 - length, end + 1);
      return false;
    };
    if (this.sparse) this.scanSparse(text, hide);
    else {
      const { table, columns, longest, width } = this;
      let at = 0;
      for (let i = 0; i < text.length; i++) {
        at = table[at + columns[text.charCodeAt(i)]!]!;
        if (at >= 0) continue;
        at = -1 - at;
        hide(i, longest[at / width]!);
      }
    }
    if (!hidden) return text;
    let out = "";
    for (let i = 0; i < text.length; i++) out += hidden[i] ? "*" : text[i];
    return out;
  }
}
