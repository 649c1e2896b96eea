// The names of the users a table's rows name (leader, assignees, any user column),
// without vscode. The people directory (src/people, the one the Before/After change
// tables use) is asked for the IDs it knows at once; the others are read through it
// in the background (one read at a time, each ID asked once), and `onLearned` is
// called when a read taught names: the table then repaints its rows and compiles its
// filter again, so "leader is" / "assigned to" by name match the names learned.
import type { ColumnDef } from './columns';
import type { LoadedRow } from './load';
import type { KnownUser } from './lookup';
import { userNames, userResolver, type UserResolver } from './lookup';

/**
 * Names the rows carry themselves: an assignment's `partyName` where the answer has one
 * (the sandbox's answers do; the official help does not promise it). Shown only while
 * the directory does not know the ID (a user group is not among the users it reads).
 */
export function carriedNames(rows: readonly LoadedRow[], columns: readonly ColumnDef[]): Map<string, string> {
  const out = new Map<string, string>();
  const multi = columns.filter((c) => c.type === 'user' && c.multi);
  for (const r of rows) {
    for (const c of multi) {
      const v = r.fields[c.key];
      if (!Array.isArray(v)) continue;
      for (const a of v) {
        if (typeof a !== 'object' || a === null) continue;
        const { partyId, partyName } = a as { partyId?: unknown; partyName?: unknown };
        if (typeof partyId === 'string' && typeof partyName === 'string' && partyName.trim() !== '') out.set(partyId, partyName);
      }
    }
  }
  return out;
}

/** What the table needs of the people directory (src/people/directory.ts UserDirectory has it). */
export interface PeopleDirectory {
  /** The known users among these IDs (no request). */
  lookupAll(ids: Iterable<string>): Map<string, KnownUser>;
  /** Reads the users not known yet; true when one of them became known. */
  resolve(ids: Iterable<string>): Promise<boolean>;
}

export class TableNames {
  private readonly known = new Map<string, KnownUser>();
  /** Names the rows carry (carriedNames), used where the directory knows no name. */
  private readonly carried = new Map<string, string>();
  /** IDs named by rows whose name is not known yet. */
  private readonly unknown = new Set<string>();
  /** IDs already asked of the directory (never asked twice, unless it learns by itself). */
  private readonly asked = new Set<string>();
  private reading: Promise<void> | undefined;
  private cache: { resolve: UserResolver; name: (id: string) => string | undefined } | undefined;

  constructor(
    private readonly people: PeopleDirectory | undefined,
    /** Called when names became known after a read (not for names known at once). */
    private readonly onLearned: () => void,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  /** The name of a user, when known. */
  name(id: string): string | undefined {
    return this.known.get(id)?.name ?? this.carried.get(id);
  }

  /** The users known by name. */
  users(): KnownUser[] {
    return [...this.known.values()];
  }

  /** Users by what a person writes, over the users known now (filters, cell input). */
  resolver(): UserResolver {
    return this.cached().resolve;
  }

  /** A name lookup over the users known now (FormatContext.userName). */
  lookup(): (id: string) => string | undefined {
    return this.cached().name;
  }

  private cached(): NonNullable<TableNames['cache']> {
    if (!this.cache) {
      const users = this.users();
      const all = [...users, ...[...this.carried].filter(([id]) => !this.known.has(id)).map(([id, name]) => ({ id, name }))];
      this.cache = { resolve: userResolver(all), name: userNames(all) };
    }
    return this.cache;
  }

  /** IDs named by rows whose name is not known (tests, logs). */
  get missing(): ReadonlySet<string> {
    return this.unknown;
  }

  /**
   * Notes the user IDs rows name: names the directory knows now are taken at once
   * (returns true when some were); the others are read in the background, and
   * `onLearned` is called when that read taught some.
   */
  note(ids: Iterable<string>, carried?: ReadonlyMap<string, string>): boolean {
    if (carried) {
      for (const [id, name] of carried) {
        if (this.carried.get(id) === name) continue;
        this.carried.set(id, name);
        this.cache = undefined;
      }
    }
    const fresh: string[] = [];
    for (const id of ids) if (!this.known.has(id) && !this.unknown.has(id)) fresh.push(id);
    if (fresh.length === 0) return false;
    for (const id of fresh) this.unknown.add(id);
    const got = this.take();
    this.readUnknown();
    return got;
  }

  /** Looks again in the directory for every unknown ID (it learned users by itself); true when some name became known. */
  refresh(): boolean {
    for (const id of this.unknown) this.asked.delete(id);
    const got = this.take();
    if (got) this.readUnknown();
    return got;
  }

  /** Resolves when no read is running (tests, the end of a load). */
  async settled(): Promise<void> {
    while (this.reading) await this.reading;
  }

  private take(): boolean {
    if (!this.people || this.unknown.size === 0) return false;
    const found = this.people.lookupAll(this.unknown);
    for (const [id, u] of found) {
      this.known.set(id, u);
      this.unknown.delete(id);
    }
    if (found.size > 0) this.cache = undefined;
    return found.size > 0;
  }

  private readUnknown(): void {
    if (!this.people || this.reading) return;
    const ask = [...this.unknown].filter((id) => !this.asked.has(id));
    if (ask.length === 0) return;
    for (const id of ask) this.asked.add(id);
    const people = this.people;
    this.reading = (async () => {
      try {
        const some = await people.resolve(ask);
        if (some && this.take()) this.onLearned();
      } catch (e) {
        this.onError(e);
      } finally {
        this.reading = undefined;
      }
      // IDs noted while this read ran.
      this.readUnknown();
    })();
  }
}
