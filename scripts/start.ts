// `npm start`: VS Code with Work Item Studio running against the sandbox's demo data.
//   - starts a sandbox (demo data, 127.0.0.1, a free port) in this process;
//   - creates a throw-away workspace whose settings point workItemStudio.serviceUrl at it
//     (and workItemStudio.organizations at the demo root organization, and
//     workItemStudio.sandboxLabel "npm start", by which the extension names it
//     "Sandbox (started by npm start)"), with sample documents and a README that welcomes;
//   - with a desktop `code` on PATH (or WIS_CODE=/path/to/code): opens it in extension
//     development mode on this repository (no packaging);
//   - otherwise: packages the VSIX, installs it into code-server (installed into a cache outside
//     the repository on first use, see scripts/setup-code-server.sh) and serves the browser
//     workbench on 127.0.0.1, printing its URL. The workspace opens with the Work Item Studio
//     view shown (a folder-open task that runs the view's command) and its README.
// One line per step (scripts/start-steps.ts); the tools' output goes to test-results/start/start.log
// and is shown only when a step fails.
// Sign in with login name `admin`, password `password`. Ctrl-C stops everything it started.
// `npm start -- --locale ja`: the workbench in Japanese (the extension's Japanese strings; in the
// browser workbench VS Code's own strings stay English, as no real language pack is installed).
// Environment: WIS_PORT (code-server port, default a free one), WIS_CODE (desktop binary),
// WIS_BROWSER=1 (use code-server even when `code` exists).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSandbox, DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_SIGN_IN } from '../src/sandbox';
import {
  ensureTools,
  installDisplayLanguage,
  installExtensions,
  killTree,
  logQuietlyTo,
  makeRunDir,
  packageExtension,
  REPO_ROOT,
  run,
  startCodeServer,
  type Tools,
} from '../test/runners/code-server';
import { createWorkspace, GOOD_DOCUMENT } from '../test/runners/workspace.mjs';
import { localeArg, runStart, START_SANDBOX_LABEL, StepFailed, type StartSteps } from './start-steps';

function findDesktopCode(): string | undefined {
  if (process.env.WIS_BROWSER === '1') return undefined;
  if (process.env.WIS_CODE) return process.env.WIS_CODE;
  const r = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const found = r.status === 0 ? r.stdout.trim() : '';
  // code-server's own `code` helper script is not a desktop VS Code.
  if (!found || /code-server/.test(fs.realpathSync(found))) return undefined;
  return found;
}

/** The demo workspace's welcome (opened on start as its README), in Japanese with `--locale ja`. */
function welcome(sandboxUrl: string, locale?: string): string {
  if (locale === 'ja') {
    return [
      '# Work Item Studio デモ',
      '',
      `このウィンドウは **${START_SANDBOX_LABEL}** を使います。デモ データを持つサンドボックス (${sandboxUrl}) で、`,
      '`npm start` を実行した端末で Ctrl-C を押すまでこのマシンで動きます。',
      '',
      `1. サインイン: ステータス バーの項目 (左下) をクリックするか **Work Item Studio: サインイン…** を実行し、ログイン名 \`${DEMO_SIGN_IN.admin}\`、パスワード \`${DEMO_PASSWORD}\` を入力します。`,
      '2. アクティビティ バーの Work Item Studio ビューで **作業項目**、**組織**、**プロセス分類** を見ます。',
      '3. `mark-complete.workitems.json` を開き、上の **送信** をクリックします (先にプレビューが出ます)。',
      '',
      '本物のサービスには何も送りません。',
      '',
    ].join('\n');
  }
  return [
    '# Work Item Studio demo',
    '',
    `This window uses **${START_SANDBOX_LABEL}**: a sandbox with demo data at ${sandboxUrl},`,
    'running on your machine until you press Ctrl-C where you ran `npm start`.',
    '',
    `1. Sign in: click the status bar item (bottom left) or run **Work Item Studio: Sign In**, login name \`${DEMO_SIGN_IN.admin}\`, password \`${DEMO_PASSWORD}\`.`,
    '2. Browse **Work Items**, **Organizations** and **Process Categories** in the Work Item Studio view (activity bar).',
    '3. Open `mark-complete.workitems.json` and click **Send** above it (a preview comes first).',
    '',
    'Nothing here touches a real service. **Work Item Studio: Start Sandbox** would start another sandbox inside',
    'this window; with this one running it offers to use this one instead.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  let locale: string | undefined;
  try {
    locale = localeArg(process.argv.slice(2));
  } catch (e) {
    console.error(`npm start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  }
  const logFile = path.join(REPO_ROOT, 'test-results', 'start', 'start.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, `npm start, ${new Date().toISOString()}\n`);
  logQuietlyTo(logFile);

  const runDir = makeRunDir('start');
  const extensionsDir = path.join(runDir.dir, 'extensions');
  const userDataDir = path.join(runDir.dir, 'user-data');
  let tools: Tools | undefined;
  let sandbox: Awaited<ReturnType<typeof createSandbox>> | undefined;
  const children: { stop(): Promise<void> }[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
    runDir.cleanup();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const steps: StartSteps = {
    desktopCode: findDesktopCode,
    async prepareWorkbench() {
      tools = ensureTools();
      return { installed: tools.installed ?? [] };
    },
    async build() {
      run('npm', ['run', '--silent', 'build'], { timeoutMs: 5 * 60_000 });
    },
    async installExtension() {
      installExtensions(tools!, extensionsDir, userDataDir, [packageExtension()]);
      if (locale) installDisplayLanguage(tools!, { runDir: runDir.dir, extensionsDir, userDataDir, locale });
    },
    async startSandbox() {
      sandbox = await createSandbox({ host: '127.0.0.1', port: 0 });
      const workspace = createWorkspace({
        dir: path.join(runDir.dir, 'demo'),
        files: {
          'mark-complete.workitems.json': { ...GOOD_DOCUMENT, workItemIds: ['122', '123'] },
          'README.md': welcome(sandbox.url, locale),
          // Shows the Work Item Studio view when the folder opens (code-server keeps no layout
          // of a new user-data-dir; a task's ${command:…} runs the view's command offline).
          '.vscode/tasks.json': {
            version: '2.0.0',
            tasks: [
              {
                label: 'Show Work Item Studio',
                type: 'shell',
                command: 'true ${command:workbench.view.extension.workItemStudio}',
                runOptions: { runOn: 'folderOpen' },
                presentation: { reveal: 'never', panel: 'dedicated', close: true, showReuseMessage: false },
                problemMatcher: [],
              },
            ],
          },
        },
        settings: {
          'workItemStudio.serviceUrl': sandbox.url,
          'workItemStudio.organizations': [DEMO_ORGANIZATIONS.root],
          // Names this service "Sandbox (started by npm start)" everywhere in the extension.
          'workItemStudio.sandboxLabel': 'npm start',
        },
      });
      return { url: sandbox.url, workspace };
    },
    async startWorkbench(workspace) {
      const server = await startCodeServer({
        tools: tools!,
        userDataDir,
        extensionsDir,
        folder: workspace,
        logFile: path.join(path.dirname(logFile), 'code-server.log'),
        port: process.env.WIS_PORT ? Number(process.env.WIS_PORT) : undefined,
        locale,
        userSettings: { 'workbench.startupEditor': 'readme', 'task.allowAutomaticTasks': 'on' },
      });
      children.push(server);
      server.process.on('exit', (code) => {
        if (!stopping) console.error(`code-server exited (${code}); see ${path.join(path.dirname(logFile), 'code-server.log')}`);
        void stopAll(code ?? 1);
      });
      return { url: `${server.url}/?folder=${encodeURIComponent(workspace)}` };
    },
    async openDesktop(code, workspace) {
      const child: ChildProcess = spawn(code, ['--new-window', '--wait', ...(locale ? ['--locale', locale] : []), `--extensionDevelopmentPath=${REPO_ROOT}`, workspace], {
        stdio: 'ignore',
        detached: true,
      });
      children.push({ stop: () => killTree(child) });
      child.on('exit', () => void stopAll(0));
    },
  };

  try {
    await runStart({
      steps,
      logFile,
      logName: path.relative(process.cwd(), logFile) || logFile,
      write: (t) => process.stdout.write(t),
      signIn: { loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD },
    });
  } catch (e) {
    if (!(e instanceof StepFailed)) console.error(`npm start: ${e instanceof Error ? e.message : String(e)}`);
    await stopAll(1);
  }
}

main().catch((e) => {
  console.error(`npm start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
