/**
 * The request path of one connection: timeouts, progress, the OAuth sign-in wait, the one retry
 * after an expired HTTP session, and tool calls that run as tasks (both eras). Kept apart from the state machine
 * in {@link ServerConnection}, which it reaches only through {@link RequestTarget}.
 */
import type { Client, RequestOptions, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { specTypeSchemas, type CallToolResult, type Progress, type Task } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';
import { findAuthorizationPending } from '../auth';
import { describeNetworkError, errorText, ServerError, toServerError } from './errors';
import { followToolTask, type TaskFollower } from './extensionTasks';
import { abortableDelay, pollDelay, TaskDeadline, TERMINAL_TASK_STATES } from './taskPolling';

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: Progress) => void;
  /** Overrides the server's timeout for this request (ms). */
  readonly timeoutMs?: number;
}

export interface ToolCallOptions extends CallOptions {
  /** Run tools with `taskSupport: optional` as tasks too. */
  readonly preferTask?: boolean;
  /** Task status updates (`working`, `input_required`, … with `statusMessage`) of a task-augmented call. */
  readonly onTaskStatus?: (task: Task) => void;
}

/** The shape a result is checked against (the SDK's `specTypeSchemas.X`). */
export type ResultSchema = StandardSchemaV1;

/** What the request path needs from its connection. */
export interface RequestTarget {
  readonly name: string;
  readonly logger: Logger;
  /** Why the last connection closed, for the error of a request it cut short. */
  closedReason(): string | undefined;
  /** The server's URL (HTTP servers), for an error that could not reach it. */
  url?(): string | undefined;
  /** The running client, waiting for a start in progress; throws a "not running" error for `method` otherwise. */
  runningClient(method: string, opts: CallOptions): Promise<Client>;
  /** The client if the server runs now, without waiting (the hot path: no promise, no tick). */
  clientIfRunning(): Client | undefined;
  /** The client now (after {@link reinitialize}: the new one). */
  currentClient(): Client | undefined;
  /** Per-request timeout when the call sets none (ms). */
  defaultTimeoutMs(): number;
  maxTotalTimeoutMs(): number;
  /** The request failed because the server dropped our HTTP session. */
  isExpiredSession(err: unknown): boolean;
  /** Starts a new session in place of an expired one. */
  reinitialize(): Promise<void>;
  notRunning(method: string): ServerError;
  /** `client` failed to reach its server: the connection decides whether it is gone. */
  unreachable(client: Client, err: unknown): void;
}

/** Per connection, the options of its calls that bring no signal or progress of their own (most of them). */
const plainOptions = new WeakMap<RequestTarget, RequestOptions>();

/**
 * The SDK's options for one request. A call without a signal or progress handler gets the connection's
 * shared object while the timeouts stay what they were (the SDK only reads it): 1,000 calls in flight
 * then allocate none of them.
 */
export function requestOptions(target: RequestTarget, opts: CallOptions): RequestOptions {
  const timeout = opts.timeoutMs ?? target.defaultTimeoutMs();
  const maxTotalTimeout = target.maxTotalTimeoutMs();
  if (opts.signal || opts.onprogress) return { signal: opts.signal, onprogress: opts.onprogress, timeout, resetTimeoutOnProgress: true, maxTotalTimeout };
  const shared = plainOptions.get(target);
  if (shared?.timeout === timeout && shared.maxTotalTimeout === maxTotalTimeout) return shared;
  const fresh: RequestOptions = Object.freeze({ timeout, resetTimeoutOnProgress: true, maxTotalTimeout });
  plainOptions.set(target, fresh);
  return fresh;
}

/** Sends a request with the server's timeout, cancellation and progress; errors name the server. */
export function sendRequest<T>(target: RequestTarget, method: string, params: Record<string, unknown> | undefined, schema: ResultSchema, opts: CallOptions = {}): Promise<T> {
  return sendWith(target, method, opts, (client, ro) => client.request({ method, params }, schema, ro) as Promise<T>);
}

/**
 * Like {@link sendRequest}, with `send` making the call on the client (one of its typed methods).
 * Promise chains, not async functions: a call to a running server adds no tick of its own before
 * it reaches the SDK, and one settled promise after (each async layer cost a tick and an allocation
 * per call, which 1,000 calls in flight at once pay a thousand times).
 */
export function sendWith<T>(target: RequestTarget, method: string, opts: CallOptions, send: (client: Client, ro: RequestOptions) => Promise<T>): Promise<T> {
  const client = target.clientIfRunning();
  return client ? sendOn(target, method, opts, send, client) : target.runningClient(method, opts).then(c => sendOn(target, method, opts, send, c));
}

function sendOn<T>(target: RequestTarget, method: string, opts: CallOptions, send: (client: Client, ro: RequestOptions) => Promise<T>, client: Client): Promise<T> {
  const ro = requestOptions(target, opts);
  return withAuthRetry(() => send(client, ro), err => failed(target, method, opts, send, client, ro, err));
}

/** A request failed: retry once on a new session if the server dropped ours, else the error names the server. */
async function failed<T>(target: RequestTarget, method: string, opts: CallOptions, send: (client: Client, ro: RequestOptions) => Promise<T>, client: Client, ro: RequestOptions, err: unknown): Promise<T> {
  if (target.isExpiredSession(err) && client === target.currentClient()) {
    // Spec: a 404 for our session id means the server dropped it; start a new session and retry once.
    target.logger.info('HTTP session expired (404); re-initializing');
    await target.reinitialize();
    const again = target.currentClient();
    if (!again) throw target.notRunning(method);
    try { return await withAuthRetry(() => send(again, ro)); }
    catch (e) { throw errorOf(target, method, opts, e); }
  }
  if (describeNetworkError(err)) target.unreachable(client, err);
  throw errorOf(target, method, opts, err);
}

/** `err` as the caller sees it: a ServerError naming the server, the method and, when known, why the connection closed. */
function errorOf(target: RequestTarget, method: string, opts: CallOptions, err: unknown): ServerError {
  return toServerError(target.name, method, cancelledOr(err, opts), target.closedReason(), target.url?.());
}

/** A task's failure: the task path's own ServerErrors stay as they are. */
function taskErrorOf(target: RequestTarget, opts: CallOptions, err: unknown): ServerError {
  return err instanceof ServerError ? err : errorOf(target, 'tools/call (task)', opts, err);
}

/**
 * A tool call as a task (spec 2025-11-25 tasks): the server answers `tools/call` with a task, we
 * poll `tasks/get` at the server's interval (bounded, for at most the host's total request time) and
 * fetch `tasks/result` once it is terminal. Status goes to `onTaskStatus`; aborting the signal sends `tasks/cancel`.
 */
export async function callToolAsTask(target: RequestTarget, name: string, args: Record<string, unknown>, opts: ToolCallOptions): Promise<CallToolResult> {
  const client = await target.runningClient('tools/call', opts);
  const ro = requestOptions(target, opts);
  let taskId: string | undefined, cancelSent = false;
  const cancel = () => {
    if (!taskId || cancelSent) return;
    cancelSent = true;
    client.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult).catch(e => target.logger.debug(`tasks/cancel failed: ${errorText(e)}`));
  };
  opts.signal?.addEventListener('abort', cancel, { once: true });
  const fail = (e: unknown) => taskErrorOf(target, opts, e);
  const deadline = new TaskDeadline(target.name, target.maxTotalTimeoutMs());
  try {
    let task: Task;
    try {
      const created = await client.request({ method: 'tools/call', params: { name, arguments: args, task: {} } }, specTypeSchemas.CreateTaskResult, ro);
      task = created.task;
    } catch (e) { throw fail(e); }
    const id = taskId = task.taskId;
    opts.onTaskStatus?.(task);
    while (!TERMINAL_TASK_STATES.has(task.status)) {
      try {
        const wait = pollDelay(task.pollInterval);
        deadline.check(id, wait);
        await abortableDelay(wait, opts.signal);
        task = await client.request({ method: 'tasks/get', params: { taskId: id } }, specTypeSchemas.GetTaskResult, ro);
        if (task.taskId !== id) throw new ServerError(target.name, `tasks/get for task ${JSON.stringify(id)} answered with another task (${JSON.stringify(task.taskId)}).`);
      } catch (e) { cancel(); throw fail(e); }
      opts.onTaskStatus?.(task);
    }
    try { return await client.request({ method: 'tasks/result', params: { taskId: id } }, specTypeSchemas.CallToolResult, ro); }
    catch (e) { throw fail(e); }
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
  }
}

/**
 * A tool call on a 2026-era connection, which declares the tasks extension: the server answers with
 * the result, or with a task (handed over by the transport, see taskHandoff.ts) that is followed to
 * its end (extensionTasks.ts). `send` makes the call itself (the SDK's callTool).
 */
export async function callToolOrTask(target: RequestTarget & TaskFollower, takeTask: (err: unknown) => Record<string, unknown> | undefined, opts: ToolCallOptions,
  send: (client: Client, ro: RequestOptions) => Promise<CallToolResult>): Promise<CallToolResult> {
  const first = await sendWith(target, 'tools/call', opts, (client, ro) => send(client, ro).then(result => ({ result }), (e: unknown) => {
    const task = takeTask(e);
    if (!task) throw e;
    return { task, client, ro };
  }));
  if ('result' in first) return first.result;
  try { return await followToolTask(target, first.client, first.task, first.ro, opts); }
  catch (e) { throw taskErrorOf(target, opts, e); }
}

/**
 * Sends again a request that met a sign-in waiting for the user, once that sign-in is done: the
 * request's timeout is for the server, not for a person in a browser. Any other failure goes to
 * `onError` (default: rejects with it). One `.then` on the send's promise, so a success costs a tick.
 */
export function withAuthRetry<T>(send: () => Promise<T>, onError: (err: unknown) => Promise<T> = err => Promise.reject(err), round = 0): Promise<T> {
  let sent: Promise<T>;
  try { sent = send(); } catch (e) { sent = Promise.reject(e); }
  return sent.then(undefined, (err: unknown) => {
    const pending = round < 3 ? findAuthorizationPending(err) : undefined;
    return pending ? pending.authorization.then(() => withAuthRetry(send, onError, round + 1), onError) : onError(err);
  });
}

/** The SDK reports the caller's abort as a RequestTimeout: the caller's cancel is not a timeout. */
function cancelledOr(err: unknown, opts: CallOptions): unknown {
  return opts.signal?.aborted ? Object.assign(new Error('aborted', { cause: err }), { name: 'AbortError' }) : err;
}

