/**
 * Hands a `tools/call` answered with a task (2026-07-28 tasks extension, `resultType: "task"`) from
 * the transport to the caller. SDK 2.4.0 refuses that result shape (UnsupportedResultType, without
 * the result), so the transport swaps the response for a JSON-RPC error the SDK delivers to exactly
 * the call it answers (its timeouts, cancellation and multi-round-trip rounds stay the SDK's), and
 * keeps the task under a random token the caller redeems with {@link TaskHandoff.take}. The error
 * names the token under a per-connection random key: a server cannot forge a handoff, and a real
 * error of the server never looks like one.
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/client';

/** Implementation-defined JSON-RPC code of the swapped response (never sent anywhere). */
export const TASK_HANDOFF_CODE = -32099;
/** Tasks held for callers that have not redeemed them (a caller that gave up never will). */
const MAX_HELD = 64;
/** Calls remembered while unanswered (a call the server never answers is forgotten after this many newer ones). */
const MAX_PENDING = 1024;

export class TaskHandoff {
  /** Ids of `tools/call` requests we sent and have no answer to yet. */
  private readonly calls = new Set<RequestId>();
  private readonly held = new Map<string, Record<string, unknown>>();
  private readonly key = `mcp-host/task-${randomUUID()}`;

  /** Set on 2026-era connections (the extension is a 2026-07-28 one); on earlier ones a task result is just a bad result. */
  active = false;

  sent(message: JSONRPCMessage): void {
    if (!this.active || !('method' in message) || message.method !== 'tools/call' || !('id' in message)) return;
    if (this.calls.size >= MAX_PENDING) this.calls.delete(this.calls.values().next().value!);
    this.calls.add(message.id);
  }

  /** The message to hand to the SDK: the server's own, or the swapped error for a task. */
  received(message: JSONRPCMessage): JSONRPCMessage {
    if ('method' in message || !('id' in message) || message.id === undefined || !this.calls.delete(message.id)) return message;
    if (!('result' in message) || (message.result as { resultType?: unknown }).resultType !== 'task') return message;
    const token = randomUUID();
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    this.held.set(token, message.result as Record<string, unknown>);
    return { jsonrpc: '2.0', id: message.id, error: { code: TASK_HANDOFF_CODE, message: 'The server answered with a task (io.modelcontextprotocol/tasks).', data: { [this.key]: token } } };
  }

  /** The task result behind a swapped error (once), or undefined when `err` is not one. */
  take(err: unknown): Record<string, unknown> | undefined {
    for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
      const token = ((e as { data?: unknown }).data as Record<string, unknown> | undefined)?.[this.key];
      if ((e as { code?: unknown }).code !== TASK_HANDOFF_CODE || typeof token !== 'string') continue;
      const task = this.held.get(token);
      this.held.delete(token);
      return task;
    }
    return undefined;
  }

  clear(): void { this.calls.clear(); this.held.clear(); }
}
