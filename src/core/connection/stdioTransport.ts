/**
 * stdio transport. Replaces the SDK's StdioClientTransport because we need: the child in its own
 * process group (so stop kills the whole tree), stderr split into lines for the server's log, and
 * non-JSON stdout lines logged instead of surfacing as protocol errors.
 */
import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/client';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { finishTree, killDescendants, killTree, snapshotTree, terminateTree } from './processTree';
import { cutMarker } from '../budgets/truncate';
import { defaultServerLimits, LineSplitter, oversizedReply, type OversizedLine, type ServerLimits } from '../budgets';
import { describeSpawnError, spawnStdio, type StdioLaunch } from './stdioSpawn';
import type { StartedProcess } from './earlyProcesses';

export { LaunchError, type StdioLaunch } from './stdioSpawn';

export interface ExitInfo { code: number | null; signal: NodeJS.Signals | null; }

const GROUP_GRACE_MS = 2000;

/**
 * Runs beside the process (the sandbox's plant guard): made right before the spawn, told how to kill
 * what the process started, finished once the process has exited — before the transport reports it.
 */
export interface ProcessWarden {
  attach(kill: () => void): void;
  finish(): unknown;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Each complete stderr line (and a trailing partial line at exit). */
  onstderr?: (line: string) => void;
  /** A stdout line that is not a JSON-RPC message. */
  onnoise?: (line: string) => void;
  /** A stdout line over `maxMessageBytes`, dropped unread (a response to us is failed with the reason). */
  onoversized?: (line: OversizedLine) => void;

  private child?: ChildProcess;
  private closing = false;
  private finishWarden: () => void = () => {};
  /** Resolves once the process has exited and its stdout and stderr have ended ('close'). */
  private closed?: Promise<void>;
  /** Resolves at the next 'drain' of the server's stdin, while a write waits for one. */
  private drained?: Promise<void>;
  exitInfo?: ExitInfo;

  /**
   * `adopt` may hand over a process already started for this very launch (earlyProcesses.ts); without
   * one, or when it has none, start() spawns.
   */
  constructor(
    private readonly launch: StdioLaunch,
    private readonly limits: Pick<ServerLimits, 'maxMessageBytes' | 'maxLogLineBytes'> = defaultServerLimits,
    private readonly adopt?: () => StartedProcess | undefined,
    private readonly warden?: () => ProcessWarden,
  ) {}

  get pid(): number | undefined { return this.child?.pid; }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      let started: StartedProcess | undefined;
      let warden: ProcessWarden | undefined;
      try {
        warden = this.warden?.();
        started = this.adopt?.();
        child = started?.child ?? spawnStdio(this.launch);
        warden?.attach(() => killDescendants(child));
      } catch (e) {
        warden?.finish();
        const err = e instanceof Error ? e : new Error(String(e));
        reject(err);
        this.onerror?.(err);
        return;
      }
      this.child = child;
      this.finishWarden = () => { warden?.finish(); };
      child.once('error', err => {
        if (child.pid === undefined) this.finishWarden();
        const e = describeSpawnError(err as NodeJS.ErrnoException, this.launch);
        reject(e);
        this.onerror?.(e);
      });
      // A process handed over may have emitted 'spawn' already.
      if (started?.spawned) resolve();
      else child.once('spawn', () => resolve());
      child.once('exit', () => {
        // A crash (kill -9, out of memory) leaves the rest of the group running, reparented to
        // init; stop() sweeps the group, and so must an exit nobody asked for.
        if (!this.closing) void sweepGroup(child);
      });
      this.closed = new Promise(done => child.once('close', () => done()));
      child.once('close', (code, signal) => {
        this.exitInfo = { code, signal };
        this.child = undefined;
        this.finishWarden();
        this.onclose?.();
      });
      child.stdin!.on('error', err => { if (!this.closing) this.onerror?.(err); });
      lines(child.stdout!, new LineSplitter({
        maxLineBytes: this.limits.maxMessageBytes,
        onLine: line => this.handleLine(line),
        onOversized: line => {
          this.onoversized?.(line);
          const reply = oversizedReply(line, this.limits.maxMessageBytes);
          if (reply) this.onmessage?.(reply);
        },
      }));
      lines(child.stderr!, new LineSplitter({
        maxLineBytes: this.limits.maxLogLineBytes,
        headBytes: this.limits.maxLogLineBytes,
        onLine: line => this.onstderr?.(line),
        onOversized: line => this.onstderr?.(cutMarker(line.head, line.bytes - Buffer.byteLength(line.head))),
      }));
    });
  }

  private handleLine(line: string): void {
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.onnoise?.(line);
      return;
    }
    this.onmessage?.(message);
  }

  /** Stops reading the server's stdout (its writes then block): backpressure for a flood. */
  pause(): void { this.child?.stdout?.pause(); }
  resume(): void { this.child?.stdout?.resume(); }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'));
    if (stdin.write(serializeMessage(message))) return Promise.resolve();
    // Every send made while the pipe is full waits for the same 'drain': one listener, not one per
    // request (1,000 calls in flight added 1,000 listeners and a MaxListenersExceededWarning).
    return this.drained ??= new Promise(resolve => stdin.once('drain', () => { this.drained = undefined; resolve(); }));
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) return;
    this.closing = true;
    // Spec: close stdin, then SIGTERM, then SIGKILL — applied to the whole process tree.
    const seen = snapshotTree(child);
    try { child.stdin?.end(); } catch { /* already closed */ }
    const exited = await waitExit(child, 500);
    await terminateTree(child, exited ? 0 : 2000, seen);
    // 'exit' can come before the pipes are read to their end: what a server said last on stderr (why it
    // did not start) is kept before the failure is reported. Bounded: the tree is gone, its pipes close.
    await Promise.race([this.closed, new Promise(r => setTimeout(r, STDIO_END_MS).unref())]);
    this.finishWarden();
  }
}

/** How long a close waits for the pipes of a process that has exited to be read to their end. */
const STDIO_END_MS = 1000;

/** SIGTERM what is left of an exited leader's group, then SIGKILL whatever ignored it. */
async function sweepGroup(child: ChildProcess): Promise<void> {
  killTree(child, 'SIGTERM');
  await new Promise(r => setTimeout(r, GROUP_GRACE_MS).unref());
  await finishTree(child);
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise(resolve => {
    const t = setTimeout(() => { child.off('exit', onExit); resolve(false); }, ms);
    const onExit = () => { clearTimeout(t); resolve(true); };
    child.once('exit', onExit);
  });
}

/** Feeds a stream to a splitter, which bounds what one line may hold. */
function lines(stream: NodeJS.ReadableStream, splitter: LineSplitter): void {
  stream.on('data', (chunk: Buffer) => splitter.push(chunk));
  stream.on('end', () => splitter.end());
}
