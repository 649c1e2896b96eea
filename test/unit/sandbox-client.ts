// A ServiceClient signed in to a sandbox as admin (bearer token), for tests that read
// the demo data over real HTTP.
import { ServiceClient } from '../../src/api/client';

export async function signedInClient(sandbox: { url: string }): Promise<ServiceClient> {
  const bare = new ServiceClient({ baseUrl: sandbox.url });
  const token = await bare.signIn('admin', 'password');
  await bare.close();
  return new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }) });
}
