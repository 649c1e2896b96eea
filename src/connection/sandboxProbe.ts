// Whether a configured service URL is a sandbox that already serves this workspace
// (`npm start`'s, or one started with `npm run sandbox`): it answers GET /_sandbox/faults,
// a read-only control route of the sandbox (no sign-in), with a JSON array. Only loopback
// URLs are asked (a sandbox listens on 127.0.0.1); any failure or other answer is "no".
// No vscode import: tested against a real sandbox (test/unit/sandbox-probe.test.ts).
import { isLoopbackHost } from '../common/serviceUrl';

export async function answersAsSandbox(baseUrl: string, timeoutMs = 2_000): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname)) return false;
  try {
    const r = await fetch(`${url.origin}/_sandbox/faults`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual', headers: { accept: 'application/json' } });
    if (r.status !== 200) {
      await r.body?.cancel().catch(() => undefined);
      return false;
    }
    const text = await r.text();
    return text.length < 1_000_000 && Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}
