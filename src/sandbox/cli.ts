// The sandbox CLI, bundled by esbuild.js to dist/sandbox.js (`npm run sandbox`).
// First line on stdout: exactly `listening on <base URL>`. No vscode import.
import type { Logger } from '../api/logger';
import { DEMO_PASSWORD, DEMO_SIGN_IN } from './demo';
import {
  GENERATE_KEYS,
  generateDataset,
  generateLargeProject,
  LARGE_PROJECT,
  LARGE_PROJECT_KEYS,
  checkLargeProjectOptions,
  parseGenerateSpec,
  parseLargeProjectSpec,
  type GenerateOptions,
  type LargeProjectOptions,
} from './generate';
import type { DatasetInput, Edition } from './model';
import { createSandbox, isLoopbackHost, type Sandbox } from './server';
import { DatasetError, readDatasetFile } from './state';

export const HELP = `Work Item Studio sandbox: a local reference implementation of the work item service.

Usage: node dist/sandbox.js [options]        (or: npm run sandbox -- [options])

Options:
  --port N           port to listen on (default 0: any free port)
  --host HOST        interface to bind (default 127.0.0.1); only loopback
                     (127.x.x.x, ::1, localhost) unless --allow-remote is given
  --allow-remote     allow a non-loopback --host. The sandbox has no real
                     security (demo passwords, unauthenticated /_sandbox/): only
                     for trusted networks
  --data FILE        load the data set from FILE (JSON, format "version": 2, or 1 migrated; see
                     docs/sandbox.md, "Data-set format"); default: the built-in demo
  --generate SPEC    generate a large data set instead, e.g.
                     --generate users=100000,organizations=50,workItems=20000,processCategories=500,seed=1
                     (names: ${GENERATE_KEYS.join(', ')}; same SPEC, same data)
  --large-project [SPEC]
                     serve one large project instead ("${LARGE_PROJECT.id}", root folder
                     ${LARGE_PROJECT.rootFolderId}): 100,000 work items over 16 levels by default,
                     e.g. --large-project items=100000,levels=16,topLevelItems=50,seed=1
                     (names: ${LARGE_PROJECT_KEYS.join(', ')}; same SPEC, same data)
  --edition E        standard | professional (default professional)
  --state FILE       persist changes: load FILE at start when it exists (instead of
                     --data / the demo), write the whole data set to it after each
                     successful update and reset (atomically: temp file + rename)
  --plain-errors     answer every failure under /api with its status and
                     [{"message": "..."}] only: no code, params, field or other
                     member (the official help says error codes and messages are
                     no contract; a client must cope with this). /_sandbox/ keeps
                     its detailed errors. Also: environment WIS_SANDBOX_PLAIN_ERRORS=1
  --drop-metadata    act as a service that does not know the "metadata" of an
                     add (not every copy of the help has it): accept it, keep
                     nothing, show none in the reads and answers
  --verbose          log each request (method, path, status, time) to stderr
  -h, --help         show this help

The first line on stdout is exactly "listening on <base URL>", e.g.
  listening on http://127.0.0.1:41234/api
Use that base URL as the extension's workItemStudio.serviceUrl. Ctrl-C stops it.

Sign-in (POST /api/auth/token {"loginName","password"} -> {"token"}, then
"Authorization: Bearer <token>"; or "Authorization: Basic base64(login:password)";
or "X-TT-ApiKey: <key>": admin, viewer and nocost have "demo-api-key-<name>").
Demo users (password "${DEMO_PASSWORD}" for all):
  ${DEMO_SIGN_IN.admin.padEnd(12)} edit and cost permission on every demo project
  ${DEMO_SIGN_IN.viewer.padEnd(12)} view permission only
  ${DEMO_SIGN_IN.nocost.padEnd(12)} edit permission, no cost permission
  ${DEMO_SIGN_IN.retired.padEnd(12)} a deleted user (cannot sign in)
  ...and dozens more (see docs/sandbox.md). Generated data sets have admin, viewer, nocost
  and user4, user5, ... (password "${DEMO_PASSWORD}").

Service API (under /api): PUT /workitem/workItems/{ids}, GET
/system/organizations/{id}/allassignedusers, GET /system/organizations/{id}/users,
GET /system/processCategories, POST /auth/token; reads: GET /project/projects,
GET /project/projects/{ids}, GET /workitem/workItems/{ids}?fields=..., GET
/workitem/workItems/{id}/subItems?fields=...&depth=N (depth counts from the
project's root folder, level 0), GET /system/users/me. Paths are case-insensitive.

Sandbox-only endpoints (at the origin root, not part of the service API, no
sign-in): GET /_sandbox/workitems/{id}, GET /_sandbox/dump, POST /_sandbox/reset,
POST|GET|DELETE /_sandbox/faults.

Limits (errors are JSON): request bodies up to 1 MiB (413), JSON nested up to 64
levels (400), request headers within 10 seconds and the body within 30 seconds
of them (408).

Exit codes: 0 after Ctrl-C / SIGTERM, 1 when the sandbox cannot start (bad data
set, port in use), 2 for bad options.
`;

export interface CliOptions {
  port: number;
  host: string;
  allowRemote: boolean;
  data?: string;
  generate?: GenerateOptions;
  largeProject?: LargeProjectOptions;
  edition: Edition;
  state?: string;
  verbose: boolean;
  /** --plain-errors: failures answered with `[{"message"}]` only. */
  plainErrors: boolean;
  /** --drop-metadata: an add's `metadata` is accepted and dropped. */
  dropMetadata: boolean;
  help: boolean;
}

export class UsageError extends Error {}

const VALUE_OPTIONS = ['--port', '--host', '--data', '--generate', '--edition', '--state'] as const;
/** Options whose value may be left out (then the defaults apply). */
const OPTIONAL_VALUE_OPTIONS = ['--large-project'] as const;
const FLAG_OPTIONS = ['--allow-remote', '--verbose', '--plain-errors', '--drop-metadata', '--help', '-h'] as const;

export function parseArgs(argv: readonly string[]): CliOptions {
  const o: CliOptions = { port: 0, host: '127.0.0.1', allowRemote: false, edition: 'professional', verbose: false, plainErrors: false, dropMetadata: false, help: false };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let name = arg;
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      name = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    }
    if ((FLAG_OPTIONS as readonly string[]).includes(name)) {
      if (value !== undefined) throw new UsageError(`${name} takes no value`);
      if (name === '--allow-remote') o.allowRemote = true;
      else if (name === '--verbose') o.verbose = true;
      else if (name === '--plain-errors') o.plainErrors = true;
      else if (name === '--drop-metadata') o.dropMetadata = true;
      else o.help = true;
      continue;
    }
    if ((OPTIONAL_VALUE_OPTIONS as readonly string[]).includes(name)) {
      if (value === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) value = argv[++i];
      if (seen.has(name)) throw new UsageError(`${name} is given more than once`);
      seen.add(name);
      try {
        o.largeProject = parseLargeProjectSpec(value ?? '');
        checkLargeProjectOptions(o.largeProject);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      continue;
    }
    if (!(VALUE_OPTIONS as readonly string[]).includes(name)) {
      throw new UsageError(arg.startsWith('-') ? `unknown option ${JSON.stringify(name)}` : `unexpected argument ${JSON.stringify(arg)}`);
    }
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`${name} needs a value`);
      i++;
    }
    if (seen.has(name)) throw new UsageError(`${name} is given more than once`);
    seen.add(name);
    switch (name) {
      case '--port': {
        if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got ${JSON.stringify(value)}`);
        o.port = Number(value);
        break;
      }
      case '--host':
        if (value.trim() === '') throw new UsageError('--host must not be empty');
        o.host = value;
        break;
      case '--data':
        o.data = value;
        break;
      case '--state':
        o.state = value;
        break;
      case '--edition': {
        const e = value.toLowerCase();
        if (e !== 'standard' && e !== 'professional') throw new UsageError(`--edition must be standard or professional, got ${JSON.stringify(value)}`);
        o.edition = e;
        break;
      }
      case '--generate':
        try {
          o.generate = parseGenerateSpec(value);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        break;
    }
  }
  const sources = [o.data !== undefined && '--data', o.generate !== undefined && '--generate', o.largeProject !== undefined && '--large-project'].filter(Boolean);
  if (sources.length > 1) throw new UsageError(`${sources.join(' and ')} cannot be used together`);
  if (!o.allowRemote && !isLoopbackHost(o.host)) {
    throw new UsageError(`--host ${o.host} is not a loopback address; the sandbox has no real security. Add --allow-remote to insist`);
  }
  return o;
}

function stderrLogger(verbose: boolean): Logger {
  const write = (level: string) => (message: string | Error) => {
    process.stderr.write(`[${level}] ${message instanceof Error ? message.message : message}\n`);
  };
  const none = () => undefined;
  return { trace: none, debug: verbose ? write('debug') : none, info: none, warn: write('warn'), error: write('error') };
}

/** Runs the CLI; resolves with the running sandbox (or undefined after --help). */
export async function main(argv: readonly string[]): Promise<Sandbox | undefined> {
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`sandbox: ${e.message}\nRun with --help for usage.\n`);
      process.exitCode = 2;
      return undefined;
    }
    throw e;
  }
  if (opts.help) {
    process.stdout.write(HELP);
    return undefined;
  }
  let sandbox: Sandbox;
  try {
    let data: DatasetInput | undefined;
    if (opts.data !== undefined) {
      const notes: string[] = [];
      const loaded = await readDatasetFile(opts.data, notes);
      if (!loaded) throw new Error(`--data: no such file: ${opts.data}`);
      for (const n of notes) process.stderr.write(`${opts.data}: ${n}\n`);
      data = loaded;
    } else if (opts.generate !== undefined) {
      data = generateDataset(opts.generate);
    } else if (opts.largeProject !== undefined) {
      data = generateLargeProject(opts.largeProject);
    }
    sandbox = await createSandbox({
      host: opts.host,
      port: opts.port,
      allowRemote: opts.allowRemote,
      data,
      edition: opts.edition,
      statePath: opts.state,
      logger: stderrLogger(opts.verbose),
      // Without the flag the environment decides (WIS_SANDBOX_PLAIN_ERRORS), as for every sandbox.
      ...(opts.plainErrors ? { plainErrors: true } : {}),
      ...(opts.dropMetadata ? { keepMetadata: false } : {}),
    });
  } catch (e) {
    const msg = e instanceof DatasetError || e instanceof Error ? e.message : String(e);
    process.stderr.write(`sandbox: ${msg}\n`);
    process.exitCode = 1;
    return undefined;
  }
  // Handlers first: a caller may signal as soon as it has read the first line.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`sandbox: ${signal} again, exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`sandbox: ${signal}, shutting down\n`);
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`sandbox: error while shutting down: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.stdout.write(`listening on ${sandbox.url}\n`);
  process.stderr.write(
    `sandbox: ${opts.edition} edition${sandbox.plainErrors ? ', plain errors (status and [{"message"}] only)' : ''}${sandbox.keepMetadata ? '' : ', metadata of adds dropped'}; sign in as ${DEMO_SIGN_IN.admin}, ${DEMO_SIGN_IN.viewer} or ${DEMO_SIGN_IN.nocost} with password "${DEMO_PASSWORD}"; Ctrl-C to stop\n`,
  );
  return sandbox;
}

if (typeof require !== 'undefined' && require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
