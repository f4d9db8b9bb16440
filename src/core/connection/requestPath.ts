/**
 * The request path of one connection: timeouts, progress, the OAuth sign-in wait, the one retry
 * after an expired HTTP session, and task-augmented tool calls. Kept apart from the state machine
 * in {@link ServerConnection}, which it reaches only through {@link RequestTarget}.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, type CallToolResult, type Progress, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger';
import { findAuthorizationPending } from '../auth';
import { describeNetworkError, ServerError, toServerError } from './errors';

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

export type ResultSchema = Parameters<Client['request']>[1];

/** What the request path needs from its connection. */
export interface RequestTarget {
  readonly name: string;
  readonly logger: Logger;
  /** Why the last connection closed, for the error of a request it cut short. */
  closedReason(): string | undefined;
  /** The running client, waiting for a start in progress; throws a "not running" error for `method` otherwise. */
  runningClient(method: string, opts: CallOptions): Promise<Client>;
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

export function requestOptions(target: RequestTarget, opts: CallOptions): RequestOptions {
  return {
    signal: opts.signal,
    onprogress: opts.onprogress,
    timeout: opts.timeoutMs ?? target.defaultTimeoutMs(),
    resetTimeoutOnProgress: true,
    maxTotalTimeout: target.maxTotalTimeoutMs(),
  };
}

/** Sends a request with the server's timeout, cancellation and progress; errors name the server. */
export async function sendRequest<T>(target: RequestTarget, method: string, params: Record<string, unknown> | undefined, schema: ResultSchema, opts: CallOptions = {}): Promise<T> {
  const client = await target.runningClient(method, opts);
  const ro = requestOptions(target, opts);
  try {
    return await withAuthRetry(() => client.request({ method, params } as never, schema, ro)) as T;
  } catch (err) {
    if (target.isExpiredSession(err) && client === target.currentClient()) {
      // Spec: a 404 for our session id means the server dropped it; start a new session and retry once.
      target.logger.info('HTTP session expired (404); re-initializing');
      await target.reinitialize();
      const again = target.currentClient();
      if (!again) throw target.notRunning(method);
      try { return await withAuthRetry(() => again.request({ method, params } as never, schema, ro)) as T; }
      catch (e) { throw toServerError(target.name, method, cancelledOr(e, opts), target.closedReason()); }
    }
    if (describeNetworkError(err)) target.unreachable(client, err);
    throw toServerError(target.name, method, cancelledOr(err, opts), target.closedReason());
  }
}

/** A tool call as a task: status goes to `onTaskStatus`, and aborting the signal sends `tasks/cancel`. */
export async function callToolAsTask(target: RequestTarget, name: string, args: Record<string, unknown>, opts: ToolCallOptions): Promise<CallToolResult> {
  const client = await target.runningClient('tools/call', opts);
  const ro = { ...requestOptions(target, opts), task: {} };
  let taskId: string | undefined;
  const cancel = () => {
    if (taskId) client.experimental.tasks.cancelTask(taskId).catch(e => target.logger.debug(`tasks/cancel failed: ${errorText(e)}`));
  };
  opts.signal?.addEventListener('abort', cancel, { once: true });
  try {
    for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, ro)) {
      if (m.type === 'taskCreated' || m.type === 'taskStatus') {
        taskId = m.task.taskId;
        opts.onTaskStatus?.(m.task);
      } else if (m.type === 'result') {
        return m.result as CallToolResult;
      } else {
        throw toServerError(target.name, 'tools/call (task)', cancelledOr(m.error, opts), target.closedReason());
      }
    }
    throw new ServerError(target.name, `tools/call (task) for "${name}" ended without a result`);
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
  }
}

/**
 * Sends again a request that met a sign-in waiting for the user, once that sign-in is done: the
 * request's timeout is for the server, not for a person in a browser.
 */
export async function withAuthRetry<T>(send: () => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    try { return await send(); } catch (err) {
      const pending = round < 3 ? findAuthorizationPending(err) : undefined;
      if (!pending) throw err;
      await pending.authorization;
    }
  }
}

/** The SDK reports the caller's abort as a RequestTimeout: the caller's cancel is not a timeout. */
function cancelledOr(err: unknown, opts: CallOptions): unknown {
  return opts.signal?.aborted ? Object.assign(new Error('aborted', { cause: err }), { name: 'AbortError' }) : err;
}

export function errorText(e: unknown): string { return e instanceof Error ? e.message : String(e); }
