// A sandbox in a process of its own for the benchmarks: the bench script is started
// again with `--serve …` (its own data set), serves until its stdin ends, and says
// `listening on <url>` once it listens.
import { spawn } from 'node:child_process';
import * as readline from 'node:readline';
import type { Sandbox } from '../src/sandbox';

/** Starts `script --serve ...args` and resolves with the sandbox's URL and a way to stop it. */
export async function startChildSandbox(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<{ url: string; close: () => void }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, '--serve', ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  const rl = readline.createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    rl.on('line', (l) => {
      const m = /^listening on (\S+)/.exec(l);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { url, close: () => child.stdin!.end() };
}

/** The child's side: says where the sandbox listens, and closes it when stdin ends. */
export function serveUntilStdinEnds(sandbox: Sandbox): void {
  process.stdout.write(`listening on ${sandbox.url}\n`);
  process.stdin.on('end', () => void sandbox.close().then(() => process.exit(0)));
  process.stdin.resume();
}
