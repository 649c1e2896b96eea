// Reading lists of users without holding them: the checks the client applies to a list
// folded batch by batch, the rows of a list read for a tree view, and the question "does
// this organization have any user" answered from the first batch. The client's methods
// (foldAllAssignedUsers, foldOrganizationUsers, readOrganizationUsers, hasUsers) make the
// requests; this module says how their answers are read. No vscode import.
import { z } from 'zod';
import { User, listResponse } from '../schema/api';
import { fastChecker } from '../schema/fast-check';
import { AnswerShapeError } from './answers';
import { zodMessages } from './failures';
import { ListDecodeError } from './listDecoder';
import type { UserRows } from './userRows';
import { scanUserList, UserListShapeError } from './userScan';

/** A list answer whose elements were folded (and checked) as they arrived: `data` is empty then. */
export const FOLDED_LIST = listResponse(z.unknown());

/** Checks one user of a list (in place, no copy); undefined when the schema cannot be compiled. */
const userChecker = fastChecker(User);
const userIsValid = (v: unknown): boolean => (userChecker ? userChecker(v) : User.safeParse(v).success);

/** Hands each batch of users to a fold that `start` makes, once each user of the batch is checked. */
export type UserFoldStart = () => (users: User[]) => void;

/**
 * The fold of a list read as users, made afresh for each attempt (a retried read starts
 * over): every element of a batch is checked against the User schema before the batch is
 * handed on; the first one that is not valid fails the read, numbered from the list's start.
 */
export function checkedUserFold(start: UserFoldStart): () => (items: unknown[]) => void {
  return () => {
    const fold = start();
    let before = 0; // users of earlier batches
    return (items) => {
      items.forEach((item, i) => {
        if (userIsValid(item)) return;
        const parsed = User.safeParse(item);
        const why = parsed.success
          ? 'not valid'
          : zodMessages(parsed.error, `data[${before + i}]`)
              .slice(0, 3)
              .join('; ');
        throw new ListDecodeError(`user ${before + i + 1} in "data" is not valid: ${why}`);
      });
      before += items.length;
      fold(items as User[]);
    };
  };
}

/**
 * The users of a list answer as rows (scanUserList); a user that is not valid is explained by
 * the schema (the same messages as a list read whole); undefined when the body is not an
 * object (read as usual then, for the usual message).
 */
export function readUserRows(body: Buffer): UserRows | undefined {
  try {
    return scanUserList(body);
  } catch (e) {
    if (!(e instanceof UserListShapeError) || !e.user) throw e;
    const { index, start, end } = e.user;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8', start, end));
    } catch {
      throw e;
    }
    const parsed = User.safeParse(value);
    if (parsed.success) throw e;
    throw new AnswerShapeError([`user ${index + 1} in "data" is not valid: ${zodMessages(parsed.error, `data[${index}]`).slice(0, 3).join('; ')}`]);
  }
}

/**
 * Whether a folded read of users yields any user: the read is stopped (through its own
 * signal) as soon as a batch with a user arrives, so a list of 300,000 users is not read
 * whole to learn that it is not empty. A cancel through `outer` rejects as the read does.
 */
export async function anyUser(
  read: (start: UserFoldStart, signal: AbortSignal) => Promise<{ totalCount: number }>,
  outer: AbortSignal | undefined,
): Promise<boolean> {
  const stop = new AbortController();
  outer?.throwIfAborted();
  const onAbort = (): void => stop.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let seen = false;
  try {
    const r = await read(
      () => (users) => {
        if (users.length === 0) return;
        seen = true;
        stop.abort();
      },
      stop.signal,
    );
    return seen || r.totalCount > 0;
  } catch (e) {
    // Stopped here after the first users: the list has users.
    if (seen && !outer?.aborted) return true;
    throw e;
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
}
