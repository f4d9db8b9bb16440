/**
 * Tool calls under the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663). The
 * host declares the extension on every request; the server decides per call whether to answer
 * `tools/call` with a task (`resultType: "task"`, the task's fields flat in the result). The host then
 * polls `tasks/get` (the answer carries the status and, at the end, the result or the error),
 * answers the task's `inputRequests` through the same ports as every other elicitation, sampling
 * or roots request and sends them with `tasks/update`, and sends `tasks/cancel` when the caller
 * gives up. Everything the server says about its task is checked: a wrong id, an unknown status or a
 * finished task without its result is an error naming the server, not a result.
 */
import type { CallToolResult, Client, RequestOptions, StandardSchemaV1, Task } from '@modelcontextprotocol/client';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { errorText, ServerError } from './errors';
import { abortableDelay, pollDelay, TASK_STATES, TaskDeadline, TERMINAL_TASK_STATES } from './taskPolling';
import { isRecord } from '../isRecord';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Longest task id we accept (ids travel in the Mcp-Name header and in logs). */
const MAX_TASK_ID = 512;
/** Input requests one task may make in all: each one is put in front of the user. */
const MAX_INPUT_REQUESTS = 32;

/** A task as the extension describes it (`Task` plus the fields of its status). */
export interface ExtensionTask {
  readonly taskId: string;
  readonly status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params: Record<string, unknown> }>>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code?: number; readonly message?: string };
}

/** What following a task needs from its connection. */
export interface TaskFollower {
  readonly name: string;
  readonly logger: { debug(message: string): void };
  maxTotalTimeoutMs(): number;
  /** Answers one input request of a task (`elicitation/create`, `sampling/createMessage`, `roots/list`) through the host's ports. */
  answerInput(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Record<string, unknown>>;
}

export interface FollowOptions {
  readonly signal?: AbortSignal;
  readonly onTaskStatus?: (task: Task) => void;
}

/** Any JSON object: the SDK checks `resultType`; {@link parseTask} checks the rest with errors that say what is wrong. */
const anyObject: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1, vendor: 'mcp-host',
    validate: v => isRecord(v) ? { value: v as Record<string, unknown> } : { issues: [{ message: 'expected a JSON object' }] },
  },
};

/** Checks a task the server sent (`what`: where it came from); throws a ServerError saying what is wrong. */
export function parseTask(server: string, raw: unknown, what: string): ExtensionTask {
  const bad = (why: string) => new ServerError(server, `${what} is not a valid task: ${why}.`);
  if (!isRecord(raw)) throw bad('not an object');
  const { taskId, status, statusMessage, pollIntervalMs, ttlMs, inputRequests, result, error } = raw;
  if (typeof taskId !== 'string' || !taskId || taskId.length > MAX_TASK_ID) throw bad('"taskId" must be a non-empty string');
  if (typeof status !== 'string' || !TASK_STATES.has(status)) throw bad(`unknown status ${JSON.stringify(status)?.slice(0, 60)}`);
  if (statusMessage !== undefined && typeof statusMessage !== 'string') throw bad('"statusMessage" must be a string');
  if (pollIntervalMs !== undefined && (typeof pollIntervalMs !== 'number' || !Number.isFinite(pollIntervalMs))) throw bad('"pollIntervalMs" must be a number');
  if (ttlMs !== undefined && ttlMs !== null && (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs))) throw bad('"ttlMs" must be a number or null');
  if (status === 'input_required') {
    if (!isRecord(inputRequests) || !Object.keys(inputRequests).length) throw bad('status "input_required" without "inputRequests"');
    for (const [key, r] of Object.entries(inputRequests)) {
      if (!isRecord(r) || typeof r.method !== 'string' || !isRecord(r.params ?? {})) throw bad(`input request ${JSON.stringify(key)} needs a "method" and "params"`);
    }
  }
  if (status === 'completed' && !isRecord(result)) throw bad('status "completed" without "result"');
  if (status === 'failed' && !isRecord(error)) throw bad('status "failed" without "error"');
  return raw as unknown as ExtensionTask;
}

/** The task as `onTaskStatus` reports it (the SDK's `Task` type, shared with 2025-era tasks). */
function asTaskStatus(t: ExtensionTask): Task {
  return {
    taskId: t.taskId, status: t.status, ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
    createdAt: t.createdAt ?? '', lastUpdatedAt: t.lastUpdatedAt ?? '', ttl: t.ttlMs ?? null,
    ...(t.pollIntervalMs !== undefined ? { pollInterval: t.pollIntervalMs } : {}),
  } as Task;
}

/**
 * Follows a task created by `tools/call` to its end and returns the call's result. Polls at the
 * server's interval within {@link pollDelay}'s bounds, for at most the host's total request time;
 * aborting `opts.signal`, or running out of time, sends `tasks/cancel`.
 */
export async function followToolTask(follower: TaskFollower, client: Client, created: unknown, ro: RequestOptions, opts: FollowOptions): Promise<CallToolResult> {
  let task = parseTask(follower.name, created, 'The answer to tools/call');
  const taskId = task.taskId;
  const deadline = new TaskDeadline(follower.name, follower.maxTotalTimeoutMs());
  // Each request of the task gets the call's own timeout and signal, not its progress handler.
  const taskRo: RequestOptions = { signal: opts.signal, timeout: ro.timeout };
  let cancelSent = false;
  const cancel = () => {
    if (cancelSent) return;
    cancelSent = true;
    client.request({ method: 'tasks/cancel', params: { taskId } }, anyObject).catch(e => follower.logger.debug(`tasks/cancel failed: ${errorText(e)}`));
  };
  opts.signal?.addEventListener('abort', cancel, { once: true });
  const answered = new Set<string>();
  try {
    for (;;) {
      if (TERMINAL_TASK_STATES.has(task.status)) cancelSent = true; // nothing left to cancel
      opts.onTaskStatus?.(asTaskStatus(task));
      switch (task.status) {
        case 'completed': {
          const checked = specTypeSchemas.CallToolResult['~standard'].validate(task.result);
          if ('then' in checked || checked.issues) throw new ServerError(follower.name, `the result of task ${JSON.stringify(taskId)} is not a tool result.`);
          return checked.value as CallToolResult;
        }
        case 'failed': {
          const err = task.error!;
          throw new ServerError(follower.name, `the task failed: ${typeof err.message === 'string' ? err.message : 'no message'}`, typeof err.code === 'number' ? err.code : undefined);
        }
        case 'cancelled':
          throw new ServerError(follower.name, `the task was cancelled${task.statusMessage ? `: ${task.statusMessage}` : '.'}`);
        case 'input_required':
          await answerInputs(follower, client, task, answered, taskRo, opts.signal);
          break;
      }
      const wait = pollDelay(task.pollIntervalMs);
      deadline.check(taskId, wait);
      await abortableDelay(wait, opts.signal);
      const next = parseTask(follower.name, await client.request({ method: 'tasks/get', params: { taskId } }, anyObject, taskRo), 'The answer to tasks/get');
      if (next.taskId !== taskId) throw new ServerError(follower.name, `tasks/get for task ${JSON.stringify(taskId)} answered with another task (${JSON.stringify(next.taskId)}).`);
      task = next;
    }
  } catch (e) {
    // Whatever ended the call early (a lie of the server, the user's refusal, the time budget) ends the task too.
    cancel();
    throw e;
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
  }
}

/** Answers the task's input requests not answered before (a key is answered once, as the extension asks) and sends them with `tasks/update`. */
async function answerInputs(follower: TaskFollower, client: Client, task: ExtensionTask, answered: Set<string>, ro: RequestOptions, signal: AbortSignal | undefined): Promise<void> {
  const responses: Record<string, Record<string, unknown>> = {};
  for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
    if (answered.has(key)) continue;
    if (answered.size >= MAX_INPUT_REQUESTS) throw new ServerError(follower.name, `task ${JSON.stringify(task.taskId)} asked for input more than ${MAX_INPUT_REQUESTS} times.`);
    answered.add(key);
    responses[key] = await follower.answerInput(request.method, request.params ?? {}, signal);
  }
  if (Object.keys(responses).length) await client.request({ method: 'tasks/update', params: { taskId: task.taskId, inputResponses: responses } }, anyObject, ro);
}
