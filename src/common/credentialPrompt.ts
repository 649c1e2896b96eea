// Asking for a credential through the sign-in prompts: the method, then a token, an API key,
// or a login name and password (for a token, exchanged with the service by `signInWith`).
// Nothing asked is logged; ConnectionManager (connection.ts) stores what this returns.
import { readSettings } from './config';
import type { ConnectionInfo, SignInPrompts, SignInReason } from './connectionTypes';
import type { StoredCredential } from './secrets';

/** The credential the person gave (undefined: a prompt was dismissed). */
export async function askCredential(
  p: SignInPrompts,
  info: ConnectionInfo,
  reason: SignInReason,
  previousLogin: string | undefined,
  signInWith: (loginName: string, password: string) => Promise<string>,
): Promise<StoredCredential | undefined> {
  const method = await p.pickMethod(info, info.authMethod ?? readSettings().authMethod, reason);
  if (!method) return undefined;
  if (method === 'pasteToken') {
    const token = (await p.askToken(info))?.trim();
    if (!token) return undefined;
    return { kind: 'bearer', token };
  }
  if (method === 'apiKey') {
    const key = (await p.askApiKey(info))?.trim();
    if (!key) return undefined;
    return { kind: 'apiKey', key };
  }
  const loginName = (await p.askLoginName(info, previousLogin))?.trim();
  if (!loginName) return undefined;
  const password = await p.askPassword(info, loginName);
  if (password === undefined) return undefined;
  if (method === 'basic') return { kind: 'basic', loginName, password };
  return { kind: 'bearer', token: await signInWith(loginName, password), loginName };
}
