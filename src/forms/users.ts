// The users the forms offer by name: those of the configured root organizations (their
// own users and those below them), each with only its ID, name and login name.
import type { ServiceClient } from '../api/client';
import type { User } from '../schema/api';
import type { KnownUser } from '../common/model/users';

/** Reads the users of every root organization through `run` (the connection's reads, with sign-in). */
export async function readUsers(run: <T>(read: (c: ServiceClient) => Promise<T>) => Promise<T>, roots: readonly string[]): Promise<KnownUser[]> {
  const out: KnownUser[] = [];
  for (const root of roots) {
    const lists: KnownUser[][] = [[], []];
    const keep = (i: 0 | 1) => (): ((batch: User[]) => void) => {
      const into: KnownUser[] = (lists[i] = []);
      return (batch) => {
        for (const u of batch) into.push({ id: u.id, name: u.name, loginName: u.loginName });
      };
    };
    await run((c) => Promise.all([c.foldOrganizationUsers(root, {}, keep(0)), c.foldAllAssignedUsers(root, {}, keep(1))]));
    out.push(...lists[0]!, ...lists[1]!);
  }
  return out;
}
