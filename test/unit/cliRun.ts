/** Runs the CLI (out/src/cli/main.js) as a child process, with its configuration folder in a temp folder. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot, waitFor } from './helpers';

export const cli = path.join(repoRoot, 'out/src/cli/main.js');

export interface Run { code: number | null; stdout: string; stderr: string }

/** The CLI's configuration folder in these tests (its trusted-folders file), never the user's. */
export const cliConfigHome = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-config-'));

/** Runs the CLI in `cwd` with stdin not a terminal (as in CI). */
export function runCli(args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    // Decoded as a stream: a chunk may end inside a multi-byte character.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => { stdout += d; });
    child.stderr.on('data', (d: string) => { stderr += d; });
    child.once('error', reject);
    child.once('close', code => resolve({ code, stdout, stderr }));
  });
}

/** A workspace folder with `.vscode/<file>` holding `content`. */
export function workspace(file: string, content: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(path.join(dir, '.vscode', file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return dir;
}


/**
 * Runs the CLI in a pseudo-terminal (util-linux `script`); the transcript holds whatever the terminal
 * shows, echo included. Each answer is typed once, the moment its prompt shows (as a paste would be).
 */
export async function runCliInTerminal(args: readonly string[], cwd: string, env: Record<string, string | undefined>, answers: readonly { readonly after: string; readonly type: string }[]): Promise<{ code: number | null; transcript: string; typed: number }> {
  const command = [process.execPath, cli, ...args].map(a => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let transcript = '';
  let typed = 0;
  const code = await new Promise<number | null>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      transcript += d;
      const next = answers[typed];
      if (next && transcript.includes(next.after)) { typed++; child.stdin.write(`${next.type}\r`); }
    });
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { code, transcript, typed };
}

/** A `mcp-host serve` of a test: started until it prints its address, its output kept, stopped with SIGTERM. */
export function serveProcess(): { start(args: readonly string[], cwd: string, env: Record<string, string>, serveArgs?: readonly string[]): Promise<void>; stop(): Promise<void>; readonly output: string } {
  let child: ChildProcess | undefined;
  let output = '';
  return {
    get output() { return output; },
    async start(args, cwd, env, serveArgs = []) {
      output = '';
      child = spawn(process.execPath, [cli, ...args, 'serve', ...serveArgs], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d: Buffer) => { output += d; });
      child.stderr!.on('data', (d: Buffer) => { output += d; });
      await waitFor(() => /Ctrl-C stops/.test(output), 'serve to print its address', 30_000);
    },
    async stop() {
      if (!child) return;
      const exited = new Promise(resolve => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      child = undefined;
    },
  };
}
