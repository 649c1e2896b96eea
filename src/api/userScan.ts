// Reading a list of users (`{"totalCount": n, "data": [User, ...]}`) from its bytes, for a
// tree view: one pass over the bytes checks that they are JSON and that every user has the
// shape of the User schema (each known member's type, as the schema's compiled check does),
// and keeps per user only its row (ID, name, login name, deleted or not) and where its JSON
// is. No string of the whole answer and no object per user with all its members is made:
// the answer's bytes stay outside V8's heap and a whole user is decoded from them when it is
// asked for (UserRows.user). The JSON itself is read by JsonScan (jsonScan.ts). No vscode import.
import type { z } from 'zod';
import { User } from '../schema/api';
import { AnswerShapeError } from './answers';
import * as json from './jsonScan';
import { UserRows } from './userRows';

// Module constants, not imported bindings, in the per-member loops: where modules are CommonJS
// (tests, benches) an imported binding is a property read each time.
const { K_STRING, K_NUMBER, K_BOOL, K_NULL, QUOTE } = json;

/** The bytes are not a list of users; the message says what and where (no value of the answer quoted). */
export class UserListShapeError extends AnswerShapeError {
  constructor(
    message: string,
    /** The user at fault (0-based), its bytes in the answer: the caller may explain it with the schema. */
    readonly user?: { index: number; start: number; end: number },
  ) {
    super([message]);
  }
}

/** What a member of the User schema accepts. */
interface MemberRule {
  name: string;
  kind: typeof K_STRING | typeof K_NUMBER | typeof K_BOOL;
  integer: boolean;
  optional: boolean;
  nullable: boolean;
}

interface ZodDefLike {
  type: string;
  innerType?: z.ZodType;
  checks?: { _zod: { def: { check: string; format?: string } } }[];
}
const defOf = (s: z.ZodType): ZodDefLike => (s as unknown as { _zod: { def: ZodDefLike } })._zod.def;

/** The rules of User's members, read from the schema (so the scan follows it). */
function memberRules(): MemberRule[] {
  const shape = (User as unknown as { shape: Record<string, z.ZodType> }).shape;
  return Object.entries(shape).map(([name, schema]) => {
    let optional = false;
    let nullable = false;
    let d = defOf(schema);
    for (;;) {
      if (d.type === 'optional' && d.innerType) optional = true;
      else if (d.type === 'nullable' && d.innerType) nullable = true;
      else break;
      d = defOf(d.innerType);
    }
    const kind = d.type === 'string' ? K_STRING : d.type === 'number' ? K_NUMBER : d.type === 'boolean' ? K_BOOL : 0;
    if (kind === 0 || (d.checks ?? []).some((c) => !(c._zod.def.check === 'number_format' && /int$/.test(c._zod.def.format ?? '')))) {
      throw new Error(`userScan: the User member "${name}" has a shape the scan does not know (${d.type})`);
    }
    const integer = (d.checks ?? []).length > 0;
    return { name, kind, integer, optional, nullable };
  });
}

const RULES = memberRules();
const SLOT_ID = RULES.findIndex((r) => r.name === 'id');
const SLOT_NAME = RULES.findIndex((r) => r.name === 'name');
const SLOT_LOGIN = RULES.findIndex((r) => r.name === 'loginName');
const SLOT_DELETED = RULES.findIndex((r) => r.name === 'isDeleted');
/** Member names as bytes, by length, for matching without making strings. */
const NAMES_BY_LENGTH = new Map<number, { bytes: Buffer; slot: number }[]>();
RULES.forEach((r, slot) => {
  const bytes = Buffer.from(r.name, 'utf8');
  const list = NAMES_BY_LENGTH.get(bytes.length) ?? [];
  list.push({ bytes, slot });
  NAMES_BY_LENGTH.set(bytes.length, list);
});
const SLOT_BY_NAME = new Map(RULES.map((r, slot) => [r.name, slot]));

/**
 * Reads the answer's bytes. Returns undefined when they do not start as a JSON object (the
 * caller reads them as usual, for its usual message); throws UserListShapeError when they are
 * not JSON, or not `{totalCount, data}` with every element a user.
 */
export function scanUserList(body: Buffer): UserRows | undefined {
  return new Scanner(body).list();
}

/** The list's scan: its members read by json.JsonScan, each user checked by the rules and kept as a row. */
class Scanner extends json.JsonScan {
  /** Per member slot of the user being read: the kind of its last value (0: absent), and where it is. */
  private readonly kinds = new Uint8Array(RULES.length);
  private readonly at = new Int32Array(RULES.length * 2);
  private readonly escaped = new Uint8Array(RULES.length);
  private userIndex = -1;

  protected fail(what: string): never {
    const where = this.userIndex >= 0 ? ` (in user ${this.userIndex + 1} of "data")` : '';
    throw new UserListShapeError(`the body is not JSON: ${what} at byte ${this.i}${where}`);
  }

  list(): UserRows | undefined {
    const b = this.b;
    // A byte order mark, then white space.
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.i = 3;
    this.ws();
    if (b[this.i] !== 0x7b) return undefined;
    this.i++;
    const rows = new UserRows();
    const batch = rows.addBatch(b);
    let totalCount: number | undefined;
    let data = false;
    this.ws();
    if (b[this.i] === 0x7d) this.fail('an object without "totalCount" and "data"');
    for (;;) {
      this.ws();
      const key = this.keyName();
      this.ws();
      this.expect(0x3a);
      this.ws();
      if (key === 'data') {
        if (data) this.fail('a second "data" member');
        data = true;
        this.users(rows, batch);
      } else if (key === 'totalCount') {
        const start = this.i;
        if (this.value() !== K_NUMBER) throw new UserListShapeError('"totalCount" is not a number');
        totalCount = Number(b.toString('latin1', start, this.i));
      } else this.value();
      this.ws();
      if (b[this.i] === 0x2c) {
        this.i++;
        continue;
      }
      this.expect(0x7d);
      break;
    }
    this.ws();
    if (this.i < this.n) this.fail(`${this.describe()} after the end of the object`);
    if (totalCount === undefined) throw new UserListShapeError('totalCount: the member is missing (a whole number from 0 was expected)');
    if (!Number.isInteger(totalCount) || totalCount < 0) throw new UserListShapeError(`totalCount: ${totalCount} is not a whole number from 0`);
    if (!data) throw new UserListShapeError('data: the member is missing (an array of users was expected)');
    rows.totalCount = totalCount;
    return rows;
  }

  /** A member name at depth 1 (a string). */
  private keyName(): string {
    if (this.b[this.i] !== QUOTE) this.fail(`${this.describe()} where a member name was expected`);
    this.string();
    const raw = this.b.toString('utf8', this.lastStart, this.lastEnd);
    return this.lastEscaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** `data`'s array: every element a user. */
  private users(rows: UserRows, batch: number): void {
    const b = this.b;
    if (b[this.i] !== 0x5b) throw new UserListShapeError('data: not an array (an array of users was expected)');
    this.i++;
    this.ws();
    if (b[this.i] === 0x5d) {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.ws();
      this.userIndex = index;
      this.user(rows, batch);
      this.userIndex = -1;
      this.ws();
      const c = b[this.i];
      this.i++;
      if (c === 0x2c) continue;
      if (c === 0x5d) return;
      this.i--;
      this.userIndex = index;
      this.fail(`${this.describe()} after an element of "data" ("," or "]" expected)`);
    }
  }

  /** One user: its members checked by the rules, its row kept. */
  private user(rows: UserRows, batch: number): void {
    const b = this.b;
    const start = this.i;
    if (b[this.i] !== 0x7b) {
      this.value();
      throw this.invalid(start, 'not an object');
    }
    this.i++;
    this.kinds.fill(0);
    this.ws();
    if (b[this.i] === 0x7d) this.i++;
    else {
      for (;;) {
        this.ws();
        if (b[this.i] !== QUOTE) this.fail(`${this.describe()} where a member name was expected`);
        const slot = this.memberSlot();
        this.ws();
        this.expect(0x3a);
        this.ws();
        const at = this.i;
        const kind = this.value();
        if (slot >= 0) {
          this.kinds[slot] = kind;
          if (kind === K_STRING) {
            this.at[2 * slot] = this.lastStart;
            this.at[2 * slot + 1] = this.lastEnd;
            this.escaped[slot] = this.lastEscaped ? 1 : 0;
          } else {
            this.at[2 * slot] = at;
            this.at[2 * slot + 1] = this.i;
          }
        }
        this.ws();
        const c = b[this.i];
        if (c === 0x2c) {
          this.i++;
          continue;
        }
        this.expect(0x7d);
        break;
      }
    }
    const end = this.i;
    for (let slot = 0; slot < RULES.length; slot++) {
      const r = RULES[slot]!;
      const k = this.kinds[slot]!;
      if (k === 0) {
        if (!r.optional) throw this.invalid(start, `"${r.name}" is missing`);
      } else if (k === K_NULL) {
        if (!r.nullable) throw this.invalid(start, `"${r.name}" is null`);
      } else if (k !== r.kind) throw this.invalid(start, `"${r.name}" is not a ${r.kind === K_STRING ? 'string' : r.kind === K_NUMBER ? 'number' : 'boolean'}`);
      else if (r.integer && !Number.isSafeInteger(Number(b.toString('latin1', this.at[2 * slot], this.at[2 * slot + 1])))) throw this.invalid(start, `"${r.name}" is not a whole number`);
    }
    const deleted = this.kinds[SLOT_DELETED] === K_BOOL && b[this.at[2 * SLOT_DELETED]!] === 0x74; // true
    rows.addRow(this.text(SLOT_ID)!, this.text(SLOT_NAME)!, this.text(SLOT_LOGIN), deleted, batch, start, end);
  }

  /** The string of a member of the user just read (undefined: absent, null: null). */
  private text(slot: number): string | null | undefined {
    const k = this.kinds[slot];
    if (k === 0) return undefined;
    if (k === K_NULL) return null;
    const raw = this.b.toString('utf8', this.at[2 * slot], this.at[2 * slot + 1]);
    return this.escaped[slot] ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private invalid(start: number, why: string): UserListShapeError {
    const index = this.userIndex;
    // The element's end: it was read whole (or the scan stopped inside it: then up to here).
    return new UserListShapeError(`user ${index + 1} in "data" is not valid: ${why}`, { index, start, end: this.i });
  }

  /** A member name of a user: the slot of a known member, or -1. */
  private memberSlot(): number {
    this.string();
    const s = this.lastStart;
    const len = this.lastEnd - s;
    if (this.lastEscaped) return SLOT_BY_NAME.get(JSON.parse(`"${this.b.toString('utf8', s, this.lastEnd)}"`) as string) ?? -1;
    const candidates = NAMES_BY_LENGTH.get(len);
    if (!candidates) return -1;
    const b = this.b;
    outer: for (const c of candidates) {
      const bytes = c.bytes;
      for (let j = 0; j < len; j++) if (bytes[j] !== b[s + j]) continue outer;
      return c.slot;
    }
    return -1;
  }
}
