// A list of users as a tree view needs it: per user only what its row shows (ID, name,
// login name, deleted or not) and where its JSON is in the answer's bytes; the bytes are
// kept (outside V8's heap) and a whole user is decoded from them when it is asked for
// (a tooltip, Show Details, a keyword filter). So 10,000 users are never 10,000 objects of
// 25 members kept in the heap. The users are checked when the answer is read (the client's
// fold), so decoding one again cannot fail on a well-formed answer. No vscode import.
import type { User } from '../schema/api';

/** One user's row: what its tree row shows, and where its JSON is (`batch`, `start`, `end`). */
export interface UserRow {
  readonly id: string;
  readonly name: string;
  readonly loginName: string | null | undefined;
  readonly isDeleted: boolean;
  readonly batch: number;
  readonly start: number;
  readonly end: number;
}


export class UserRows {
  totalCount = 0;
  readonly rows: UserRow[] = [];
  private readonly batches: Buffer[] = [];
  private bytes = 0;

  /** Bytes of the answer kept (the users' JSON). */
  get keptBytes(): number {
    return this.bytes;
  }

  /** Keeps bytes that users will be decoded from; returns their batch number for addRow. */
  addBatch(bytes: Buffer): number {
    this.batches.push(bytes);
    this.bytes += bytes.length;
    return this.batches.length - 1;
  }

  /** Adds the row of a user (checked) whose JSON is `bytes[start, end)` of a batch. */
  addRow(id: string, name: string, loginName: string | null | undefined, isDeleted: boolean, batch: number, start: number, end: number): void {
    this.rows.push({ id, name, loginName, isDeleted, batch, start, end });
  }

  /** The whole user of a row (decoded from the answer's bytes again: a new object each time). */
  user(row: UserRow): User {
    const bytes = this.batches[row.batch];
    if (!bytes) throw new Error(`user ${row.id}: not a row of this list`);
    return JSON.parse(bytes.toString('utf8', row.start, row.end)) as User;
  }
}
