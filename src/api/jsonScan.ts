// A pass over the bytes of a JSON answer that checks they are JSON without making a string
// of the whole answer nor of its values: the scanner of a list (userScan.ts) reads its
// members with it and keeps only where each value is (`lastStart`/`lastEnd` for a string).
// The loops most bytes go through are here, small, so that the engine compiles them early
// and cheaply. No vscode import.

// Value kinds found by the scan.
export const K_STRING = 1;
export const K_NUMBER = 2;
export const K_BOOL = 3;
export const K_NULL = 4;
export const K_OTHER = 5; // object or array

/** Deepest nesting read inside a value (a list's elements themselves are flat). */
const MAX_DEPTH = 256;
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The first index from `i` (below `n`) of a byte that ends a run of plain string bytes: a
 * quote, a backslash or a control character; `n` when there is none. The loop most bytes
 * of an answer go through: small, so that the engine compiles it early and cheaply.
 */
function plainRun(b: Buffer, i: number, n: number): number {
  while (i < n) {
    const c = b[i]!;
    if (c === QUOTE || c === BACKSLASH || c < 0x20) return i;
    i++;
  }
  return n;
}

/** The scan's position in the bytes and the JSON values read from there; `fail` says where the bytes are not JSON. */
export abstract class JsonScan {
  protected i = 0;
  protected readonly n: number;
  /** Whether the last string read had an escape. */
  protected lastEscaped = false;
  protected lastStart = 0;
  protected lastEnd = 0;
  /** Objects and arrays open around `i` (bounded: a deeper answer is refused, not a stack overflow). */
  private depth = 0;

  constructor(protected readonly b: Buffer) {
    this.n = b.length;
  }

  /** The bytes are not JSON: `what` (and where: `i`). */
  protected abstract fail(what: string): never;

  protected ws(): void {
    const b = this.b;
    let i = this.i;
    while (i < this.n) {
      const c = b[i]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
    this.i = i;
  }

  protected describe(): string {
    if (this.i >= this.n) return 'the end of the body';
    const c = this.b[this.i]!;
    return c >= 0x21 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, '0')}`;
  }

  protected expect(c: number): void {
    if (this.b[this.i] !== c) this.fail(`${this.describe()} where "${String.fromCharCode(c)}" was expected`);
    this.i++;
  }

  /** A string at `i` (its quote): sets lastStart/lastEnd (its contents) and lastEscaped. */
  protected string(): void {
    const b = this.b;
    let i = this.i + 1;
    const start = i;
    let escaped = false;
    for (;;) {
      i = plainRun(b, i, this.n);
      if (i >= this.n) {
        this.i = i;
        this.fail('the end of the body inside a string');
      }
      const c = b[i]!;
      if (c === QUOTE) break;
      if (c !== BACKSLASH) {
        this.i = i;
        this.fail('a control character inside a string');
      }
      escaped = true;
      i = this.escape(i);
    }
    this.lastStart = start;
    this.lastEnd = i;
    this.lastEscaped = escaped;
    this.i = i + 1;
  }

  /** The escape at `i` (its backslash) checked; returns the index after it. */
  private escape(i: number): number {
    const b = this.b;
    const e = b[i + 1];
    if (e === 0x75) {
      for (let j = 2; j < 6; j++) {
        const h = b[i + j];
        if (h === undefined || !((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) {
          this.i = i;
          this.fail('a bad \\u escape');
        }
      }
      return i + 6;
    }
    if (e !== QUOTE && e !== BACKSLASH && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) {
      this.i = i;
      this.fail('a bad escape');
    }
    return i + 2;
  }

  /** Any JSON value at `i`; returns its kind. */
  protected value(): number {
    const b = this.b;
    const c = b[this.i];
    if (c === QUOTE) {
      this.string();
      return K_STRING;
    }
    if (c === 0x7b || c === 0x5b) {
      this.nested();
      return K_OTHER;
    }
    if (c === 0x74) return this.word('true', K_BOOL);
    if (c === 0x66) return this.word('false', K_BOOL);
    if (c === 0x6e) return this.word('null', K_NULL);
    if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) {
      this.number();
      return K_NUMBER;
    }
    return this.fail(`${this.describe()} where a value was expected`);
  }

  private word(w: string, kind: number): number {
    for (let j = 0; j < w.length; j++) if (this.b[this.i + j] !== w.charCodeAt(j)) this.fail(`${this.describe()} where "${w}" was expected`);
    this.i += w.length;
    return kind;
  }

  private digits(): number {
    const b = this.b;
    const from = this.i;
    while (this.i < this.n && b[this.i]! >= 0x30 && b[this.i]! <= 0x39) this.i++;
    return this.i - from;
  }

  private number(): void {
    const b = this.b;
    if (b[this.i] === 0x2d) this.i++;
    if (b[this.i] === 0x30) this.i++;
    else if (this.digits() === 0) this.fail('a number without digits');
    if (b[this.i] === 0x2e) {
      this.i++;
      if (this.digits() === 0) this.fail('a number without digits after "."');
    }
    if (b[this.i] === 0x65 || b[this.i] === 0x45) {
      this.i++;
      if (b[this.i] === 0x2b || b[this.i] === 0x2d) this.i++;
      if (this.digits() === 0) this.fail('a number without digits in its exponent');
    }
  }

  /** An object or array (any members), checked as JSON. */
  private nested(): void {
    const b = this.b;
    const close = b[this.i] === 0x7b ? 0x7d : 0x5d;
    const isObject = close === 0x7d;
    if (++this.depth > MAX_DEPTH) this.fail(`objects and arrays nested more than ${MAX_DEPTH} deep`);
    this.i++;
    this.ws();
    if (b[this.i] === close) {
      this.i++;
      this.depth--;
      return;
    }
    for (;;) {
      this.ws();
      if (isObject) {
        if (b[this.i] !== QUOTE) this.fail(`${this.describe()} where a member name was expected`);
        this.string();
        this.ws();
        this.expect(0x3a);
        this.ws();
      }
      this.value();
      this.ws();
      if (b[this.i] === 0x2c) {
        this.i++;
        continue;
      }
      this.expect(close);
      this.depth--;
      return;
    }
  }
}
