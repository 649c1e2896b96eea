// `npm start`: VS Code with Work Item Studio running against the sandbox's demo data.
//   - starts a sandbox (demo data, 127.0.0.1, a free port) in this process;
//   - creates a throw-away workspace whose settings point workItemStudio.serviceUrl at it
//     (and workItemStudio.organizations at the demo root organization), with sample documents;
//   - with a desktop `code` on PATH (or WIS_CODE=/path/to/code): opens it in extension
//     development mode on this repository (no packaging);
//   - otherwise: packages the VSIX, installs it into code-server (installed into a cache outside
//     the repository on first use, see scripts/setup-code-server.sh) and serves the browser
//     workbench on 127.0.0.1, printing its URL.
// Sign in with login name `admin`, password `password`. Ctrl-C stops everything it started.
// Environment: WIS_PORT (code-server port, default a free one), WIS_CODE (desktop binary),
// WIS_BROWSER=1 (use code-server even when `code` exists).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSandbox, DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_SIGN_IN } from '../src/sandbox';
import {
  ensureTools,
  installExtensions,
  killTree,
  makeRunDir,
  packageExtension,
  REPO_ROOT,
  run,
  startCodeServer,
} from '../test/runners/code-server';
import { createWorkspace, GOOD_DOCUMENT } from '../test/runners/workspace.mjs';

function findDesktopCode(): string | undefined {
  if (process.env.WIS_BROWSER === '1') return undefined;
  if (process.env.WIS_CODE) return process.env.WIS_CODE;
  const r = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const found = r.status === 0 ? r.stdout.trim() : '';
  // code-server's own `code` helper script is not a desktop VS Code.
  if (!found || /code-server/.test(fs.realpathSync(found))) return undefined;
  return found;
}

async function main(): Promise<void> {
  console.log('Building the extension…');
  run('npm', ['run', '--silent', 'build'], { timeoutMs: 5 * 60_000 });

  const sandbox = await createSandbox({ host: '127.0.0.1', port: 0 });
  const runDir = makeRunDir('start');
  const workspace = createWorkspace({
    dir: path.join(runDir.dir, 'demo'),
    files: {
      'mark-complete.workitems.json': { ...GOOD_DOCUMENT, workItemIds: ['122', '123'] },
    },
    settings: {
      'workItemStudio.serviceUrl': sandbox.url,
      'workItemStudio.organizations': [DEMO_ORGANIZATIONS.root],
    },
  });

  const children: { stop(): Promise<void> }[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await sandbox.close().catch(() => undefined);
    runDir.cleanup();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const banner = (where: string) =>
    [
      '',
      `Work Item Studio is running ${where}`,
      `  sandbox (demo data): ${sandbox.url}`,
      `  workspace:           ${workspace}`,
      `  sign in with login name "${DEMO_SIGN_IN.admin}" and password "${DEMO_PASSWORD}"`,
      '  (or run "Work Item Studio: Start Sandbox" for a sandbox inside VS Code)',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n');

  const desktop = findDesktopCode();
  if (desktop) {
    const child: ChildProcess = spawn(desktop, ['--new-window', '--wait', `--extensionDevelopmentPath=${REPO_ROOT}`, workspace], {
      stdio: 'inherit',
      detached: true,
    });
    children.push({ stop: () => killTree(child) });
    console.log(banner('in VS Code (extension development mode)'));
    child.on('exit', () => void stopAll(0));
    return;
  }

  const tools = ensureTools();
  const vsix = packageExtension();
  const extensionsDir = path.join(runDir.dir, 'extensions');
  const userDataDir = path.join(runDir.dir, 'user-data');
  installExtensions(tools, extensionsDir, userDataDir, [vsix]);
  const logFile = path.join(REPO_ROOT, 'test-results', 'start', 'code-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const server = await startCodeServer({
    tools,
    userDataDir,
    extensionsDir,
    folder: workspace,
    logFile,
    port: process.env.WIS_PORT ? Number(process.env.WIS_PORT) : undefined,
    userSettings: { 'workbench.startupEditor': 'none' },
  });
  children.push(server);
  console.log(banner('in the browser workbench (code-server)'));
  console.log(`  open: ${server.url}/?folder=${encodeURIComponent(workspace)}\n  code-server log: ${path.relative(REPO_ROOT, logFile)}\n`);
  server.process.on('exit', (code) => {
    if (!stopping) console.error(`code-server exited (${code}); see ${logFile}`);
    void stopAll(code ?? 1);
  });
}

main().catch((e) => {
  console.error(`npm start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
