/**
 * The commands that run servers in a host of their own (list, check, serve, and call/read/prompt without
 * a running serve), loaded by main.ts only for them: the core and the SDK it holds take longer to load
 * than a warm call through `serve` takes in all.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Emitter, LogLevel, McpHost, mergePolicies, readPolicyFiles } from '../core';
import { cliVariables } from './cliVariables';
import * as commands from './commands';
import type { loadDeclarations } from './declarations';
import type { createInputResolver } from './inputs';
import type { Output } from './output';
import { serve } from './serve';
import { cliLogger, failureText } from './stderrTail';

export interface HostRun {
  readonly command: string;
  readonly rest: readonly string[];
  readonly opts: { readonly verbose?: boolean; readonly json?: boolean; readonly allow?: readonly string[] };
  readonly out: Output;
  /** The declarations to run (call/read/prompt: only their server's). */
  readonly raw: Readonly<Record<string, unknown>>;
  readonly loaded: ReturnType<typeof loadDeclarations>;
  readonly resolver: ReturnType<typeof createInputResolver>;
  readonly target: string | undefined;
  readonly timeoutMs: number;
  readonly toolArgs: Record<string, unknown>;
  readonly promptArguments: Record<string, string>;
  readonly workspace: string;
  /** The record `serve` leaves for `call` (serveRecord.ts). */
  readonly served: string;
  readonly runUnasked: (names: readonly string[]) => Promise<readonly string[]>;
  readonly port: number | undefined;
  readonly version: string;
  /** What the output redacts (resolved inputs, secret environment values). */
  readonly secrets: () => Iterable<string>;
}

export async function runHost(p: HostRun): Promise<number> {
  const { command, rest, opts, out, raw, loaded, resolver, target, timeoutMs, toolArgs, promptArguments, workspace, served, runUnasked, port } = p;
  const VERSION = p.version;
  const noChange = new Emitter<void>();
  // The machine's policy files hold for the CLI as for the editor: a refused server is reported, never run.
  const policy = mergePolicies(readPolicyFiles());
  const host = new McpHost({
    // One-shot: a server that fails is reported, not restarted (a serve keeps the usual restarts).
    ...(command === 'serve' ? {} : { restart: { maxRestarts: 0, windowMs: 1, baseDelayMs: 0, maxDelayMs: 0 } }),
    defaultTimeoutMs: timeoutMs,
    startTimeoutMs: timeoutMs,
    // Declaration problems are reported by the command itself; the host's own log only with --verbose.
    ...(opts.verbose ? { logger: out.logger('mcp-host', LogLevel.Debug) } : {}),
    ports: {
      clientInfo: { name: 'mcp-host-cli', version: VERSION },
      variables: { ...cliVariables(workspace), resolveInput: r => resolver.resolve(r) },
      roots: { getRoots: () => [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }], onDidChangeRoots: noChange.event },
      createLogger: name => cliLogger(out.logger(name, opts.verbose ? LogLevel.Debug : LogLevel.Error)),
      policy: () => policy,
    },
  });
  const abort = new AbortController();
  // Ctrl-C: cancel what is in flight, stop every server (their process trees too), exit 130.
  const onSigint = () => { abort.abort(); void host.shutdown().finally(() => process.exit(130)); };
  process.once('SIGINT', onSigint);
  const states = host.onDidChangeState(e => out.progress(`${e.server}: ${e.state}${e.message && e.state !== 'running' ? ` (${e.state === 'error' ? failureText(e.message, e.state, host.get(e.server)?.stderrTail ?? []) : e.message})` : ''}`));
  try {
    const applied = await host.apply(raw);
    for (const why of resolver.missing.values()) out.error(`${why}${process.stdin.isTTY ? '' : ' (no terminal to ask in)'}`);
    const problems = [...loaded.problems, ...applied.problems].filter(p => target === undefined || !p.server || p.server === target);
    const ctx = { host, out, json: !!opts.json, problems, origin: loaded.origin };
    if (target !== undefined) {
      for (const p of problems) out.error(commands.describeProblem(p));
      if (problems.some(p => p.severity === 'error')) return 1;
    }
    switch (command) {
      case 'list': return commands.list(ctx);
      case 'check': return commands.check(ctx);
      case 'serve': return await serve({ host, out, file: served, allow: opts.allow ?? [], runUnasked, secrets: p.secrets, interactive: !!(process.stdin.isTTY && process.stderr.isTTY), ...(port !== undefined ? { port } : {}) });
      case 'call': return await commands.call(ctx, rest[0], rest[1], toolArgs, abort.signal);
      case 'read': return await commands.read(ctx, rest[0], rest[1], abort.signal);
      default: return await commands.prompt(ctx, rest[0], rest[1], promptArguments, abort.signal);
    }
  } finally {
    states.dispose();
    process.off('SIGINT', onSigint);
    await host.shutdown();
  }
}
