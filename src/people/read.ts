// Reading the people of a root organization for names (hovers, inlay hints, result
// views): its own users (operation 3) and the users of every organization below it
// (operation 2, which leaves the organization's own users out). No vscode import.
import type { CallOptions, ServiceClient } from '../api/client';
import type { User } from '../schema/api';
import type { KnownUser } from '../common/model/users';

/**
 * The users of `orgId` and below it, each with only its id, name and login name: both
 * lists are read batch by batch (a root organization may hold hundreds of thousands of
 * users), at the same time. Rejects when either read fails.
 */
export async function readPeople(client: ServiceClient, orgId: string, o?: CallOptions): Promise<KnownUser[]> {
  const lists: { direct: KnownUser[]; below: KnownUser[] } = { direct: [], below: [] };
  // A read retried after a dropped connection starts its list over.
  const keep = (which: keyof typeof lists) => (): ((batch: User[]) => void) => {
    const into: KnownUser[] = (lists[which] = []);
    return (batch) => {
      for (const u of batch) into.push({ id: u.id, name: u.name, loginName: u.loginName });
    };
  };
  await Promise.all([client.foldOrganizationUsers(orgId, {}, keep('direct'), o), client.foldAllAssignedUsers(orgId, {}, keep('below'), o)]);
  return [...lists.direct, ...lists.below];
}
