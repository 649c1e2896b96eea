// Decoding a large list answer (`{"totalCount": n, "data": [...]}`) while it
// arrives, so that it never exists whole as bytes, as one string and as objects at
// the same time. No vscode import.
//
// The answer's beginning is scanned byte by byte (strings, escapes, nesting) up to
// the top-level `data` array; its elements are then parsed in batches of about
// BATCH_BYTES with JSON.parse and their bytes dropped, the batches cut where an
// element ends (found without reading every byte, see cutFast); the end of `data`
// and the members after it are scanned again. The members besides `data` are kept
// as text and parsed at the end. An answer that is not a JSON object is kept whole
// and parsed as before (the caller's usual path decides).

/** Bytes of `data` elements parsed at once. */
export const BATCH_BYTES = 1 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** What was decoded: the answer, or its bytes whole when it is not an object (parsed by the caller). */
export type Decoded = { kind: 'value'; value: Record<string, unknown> } | { kind: 'bytes'; bytes: Buffer };

/** The answer is not valid JSON; `message` says where. */
export class ListDecodeError extends Error {}

function decodeName(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw; // not JSON: the answer fails to parse anyway
  }
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export class ListDecoder {
  /**
   * `batchBytes`: bytes of elements parsed at once (tests use small batches).
   * `fold`: when given, each batch of `data`'s elements is handed to it as soon as it
   * is parsed and not kept (the decoded answer's `data` is then empty); what it throws
   * stops the decoding (a ListDecodeError's message is the reason given).
   */
  constructor(
    private readonly batchBytes = BATCH_BYTES,
    private readonly fold?: (items: unknown[]) => void,
  ) {}

  /** Elements of `data` parsed so far (kept in `items`, or handed to `fold`). */
  private parsed = 0;

  private mode: 'start' | 'object' | 'whole' = 'start';
  /** Whole answers (not an object): every chunk. */
  private readonly whole: Buffer[] = [];
  /** The answer without the elements of `data` (its `[` and `]` kept). */
  private readonly skeleton: Buffer[] = [];
  /** Bytes of `data` elements not parsed yet, and their size. */
  private batch: Buffer[] = [];
  private batchSize = 0;
  private items: unknown[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the bytes of the string being read (a member name, maybe), and the last one read. */
  private key: Buffer[] | undefined;
  /** Where the member name being read starts in the current chunk. */
  private keyFrom = 0;
  private lastKey = '';
  /** A `:` followed the last member name at depth 1 (so a `[` now is that member's value). */
  private afterColon = false;
  private inData = false;
  private position = 0;
  /** Chunks inside `data` are only searched for cuts, not scanned (see cutFast). */
  private fast = false;
  private fastAllowed = true;
  /** Whether `data` had elements (a `[]` needs no batch). */
  private elements = 0;
  /** Bytes of `data` elements handed to the fold (not kept). */
  private folded = 0;

  /**
   * Bytes of the answer this decoder holds or has kept: every byte pushed so far except
   * the elements handed to the fold (with a fold: the other members, and the elements
   * waiting in the batch being cut, at most about two batches). A response cap applies to
   * this, not to the answer's length: folding a list of a million users keeps nothing.
   */
  get keptBytes(): number {
    return this.position - this.folded;
  }

  /** Feeds the next bytes of the answer. Throws ListDecodeError when a batch of elements is not JSON. */
  push(chunk: Buffer): void {
    let from = 0;
    if (this.mode === 'start') {
      // The first byte that is not white space (or a byte order mark) decides.
      let i = 0;
      while (i < chunk.length && (isSpace(chunk[i]!) || chunk[i] === 0xef || chunk[i] === 0xbb || chunk[i] === 0xbf)) i++;
      if (i === chunk.length) {
        this.whole.push(chunk);
        this.position += chunk.length;
        return;
      }
      if (chunk[i] !== OPEN_OBJECT) {
        this.mode = 'whole';
      } else {
        this.mode = 'object';
        this.whole.length = 0;
        from = i;
      }
    }
    if (this.mode === 'whole') {
      this.whole.push(chunk);
      this.position += chunk.length;
      return;
    }
    if (this.fast) {
      // Inside `data` (its bytes since the last cut start at an element): no scanning,
      // cut where an element ends and the next begins (`}` `,` `{`).
      this.addToBatch(chunk);
      this.position += chunk.length;
      if (this.batchSize >= 2 * this.batchBytes) this.cutFast();
      return;
    }
    this.scan(chunk, from);
    this.position += chunk.length;
    // Once inside `data`, the next chunks are only searched for cuts (most of a list answer).
    if (this.inData && this.fastAllowed) this.fast = true;
  }

  /**
   * Parses the elements of the batch up to the last `},{` (spaces allowed) found from its
   * end. A cut inside a string or a nested value leaves an unterminated string or an
   * unbalanced bracket, which JSON.parse refuses: so a cut that parses is where an
   * element of `data` ends. When no cut parses (elements that are not objects, a broken
   * element), the bytes are scanned byte by byte instead, from the batch's start (an
   * element boundary), for the rest of the answer.
   */
  private cutFast(): void {
    const buf = Buffer.concat(this.batch, this.batchSize);
    let from = buf.length - 1;
    // At most a few cuts are tried, among the commas of the batch's second half.
    for (let tries = 0; tries < 4 && from >= this.batchBytes; ) {
      const comma = buf.lastIndexOf(COMMA, from);
      if (comma <= 0) break;
      from = comma - 1;
      let before = comma - 1;
      while (before > 0 && isSpace(buf[before]!)) before--;
      let after = comma + 1;
      while (after < buf.length && isSpace(buf[after]!)) after++;
      if (buf[before] !== CLOSE_OBJECT || buf[after] !== OPEN_OBJECT) continue;
      tries++;
      let part: unknown;
      try {
        part = JSON.parse(`[${buf.toString('utf8', 0, comma)}]`);
      } catch {
        continue;
      }
      this.take(part as unknown[], comma + 1);
      const rest = buf.subarray(comma + 1);
      this.batch = rest.length > 0 ? [rest] : [];
      this.batchSize = rest.length;
      return;
    }
    this.toScanning(buf);
  }

  /** Scans the batch's bytes (from an element boundary inside `data`) and every byte after them. */
  private toScanning(buf: Buffer): void {
    this.fast = false;
    this.fastAllowed = false;
    this.batch = [];
    this.batchSize = 0;
    this.depth = 2;
    this.inString = false;
    this.escaped = false;
    this.key = undefined;
    this.inData = true;
    this.scan(buf, 0);
  }

  private scan(chunk: Buffer, from: number): void {
    // `mark`: where the bytes not yet handed to the skeleton or the batch start.
    let mark = from;
    const n = chunk.length;
    for (let i = from; i < n; i++) {
      if (this.inString) {
        // Most bytes are inside strings: jump to the next quote (a native search), then
        // count the backslashes before it (an odd number escapes it).
        if (this.escaped) {
          this.escaped = false;
          continue; // this byte is escaped, whatever it is
        }
        let end = -1;
        for (let at = i; ; ) {
          const q = chunk.indexOf(QUOTE, at);
          if (q < 0) break;
          let k = q - 1;
          while (k >= i && chunk[k] === BACKSLASH) k--;
          if ((q - 1 - k) % 2 === 0) {
            end = q;
            break;
          }
          at = q + 1;
        }
        if (end < 0) {
          // The string goes on in the next chunk: does this one end in an escape?
          let k = n - 1;
          while (k >= i && chunk[k] === BACKSLASH) k--;
          this.escaped = (n - 1 - k) % 2 === 1;
          i = n - 1;
          continue;
        }
        i = end;
        this.inString = false;
        if (this.key) {
          this.key.push(chunk.subarray(this.keyFrom, i));
          const raw = Buffer.concat(this.key).toString('utf8');
          // A name written with escapes ("d\u0061ta") is the name it stands for.
          this.lastKey = raw.includes('\\') ? decodeName(raw) : raw;
          this.key = undefined;
          this.afterColon = false;
        }
        continue;
      }
      const b = chunk[i]!;
      if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1) {
          this.key = [];
          this.keyFrom = i + 1;
        }
        continue;
      }
      if (this.depth === 1 && b === COLON) {
        this.afterColon = true;
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (this.depth === 1 && b === OPEN_ARRAY && this.afterColon && this.lastKey === 'data') {
          // `data` begins: the skeleton keeps `[`, its elements go to batches.
          this.skeleton.push(chunk.subarray(mark, i + 1));
          mark = i + 1;
          this.inData = true;
          if (this.fold && this.parsed > 0) throw new ListDecodeError('the answer has two "data" members');
          this.items = []; // a later `data` member wins, as in JSON.parse
          this.parsed = 0;
          this.batch = [];
          this.batchSize = 0;
          this.elements = 0;
        }
        this.depth++;
        if (this.inData && this.depth === 3) this.elements++;
        continue;
      }
      if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        this.depth--;
        if (this.inData && this.depth === 1) {
          // `data` ends: its last batch, then `]` to the skeleton.
          this.addToBatch(chunk.subarray(mark, i));
          mark = i;
          this.parseBatch();
          this.inData = false;
        }
        if (this.depth === 0) this.afterColon = false;
        continue;
      }
      if (this.inData && this.depth === 2) {
        if (b === COMMA) {
          if (this.batchSize + (i - mark) >= this.batchBytes) {
            this.addToBatch(chunk.subarray(mark, i));
            mark = i + 1;
            this.parseBatch();
          }
        } else if (!isSpace(b)) this.elements++;
      }
      if (this.depth === 1 && b === COMMA) this.afterColon = false;
    }
    if (this.key) {
      // A member name that goes on in the next chunk continues from that chunk's start.
      this.key.push(chunk.subarray(this.keyFrom, n));
      this.keyFrom = 0;
    }
    if (this.inData) this.addToBatch(chunk.subarray(mark));
    else this.skeleton.push(chunk.subarray(mark));
  }


  private addToBatch(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.batch.push(bytes);
    this.batchSize += bytes.length;
  }

  private parseBatch(): void {
    const bytes = this.batchSize;
    const text = Buffer.concat(this.batch, this.batchSize).toString('utf8');
    const at = this.position;
    this.batch = [];
    this.batchSize = 0;
    if (text.trim() === '') {
      if (this.elements > 0) throw new ListDecodeError(`the body is not JSON: an empty element in "data" near byte ${at}`);
      return;
    }
    let part: unknown;
    try {
      part = JSON.parse(`[${text}]`);
    } catch (e) {
      throw new ListDecodeError(`the body is not JSON: "data" element ${this.parsed + 1} or one after it, near byte ${at}: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
    }
    this.take(part as unknown[], bytes);
  }

  /** Keeps a parsed batch of elements (`bytes` long in the answer), or hands it to the fold. */
  private take(list: unknown[], bytes: number): void {
    this.parsed += list.length;
    if (this.fold) {
      this.folded += bytes;
      this.fold(list);
    }
    else for (let i = 0; i < list.length; i++) this.items.push(list[i]);
  }

  /** The decoded answer once every byte has been pushed. Throws ListDecodeError when it is not valid JSON. */
  finish(): Decoded {
    if (this.mode !== 'object') return { kind: 'bytes', bytes: Buffer.concat(this.whole) };
    // The tail of `data` and what follows it are scanned (the end of `data`, later members).
    if (this.fast) this.toScanning(Buffer.concat(this.batch, this.batchSize));
    if (this.inString || this.depth !== 0) throw new ListDecodeError(`the body is not JSON: it ends at byte ${this.position} inside ${this.inString ? 'a string' : 'an object or array'}`);
    const text = Buffer.concat(this.skeleton).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new ListDecodeError(`the body is not JSON: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ListDecodeError('the body is not a JSON object');
    const out = value as Record<string, unknown>;
    if (Array.isArray(out['data'])) out['data'] = this.items;
    return { kind: 'value', value: out };
  }
}
