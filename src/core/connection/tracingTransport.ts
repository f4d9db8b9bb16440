/**
 * Wraps a transport to (1) log the protocol trace at trace level, redacted, and only when the
 * logger is at trace (no JSON.stringify cost otherwise), (2) learn the negotiated protocol
 * version, which the SDK hands to transports through `setProtocolVersion`, (3) on a 2026-07-28
 * connection, read a result without `resultType` as `"complete"` (see {@link completeByDefault}), and
 * (4) hand tool calls answered with a task to their callers ({@link TaskHandoff}).
 */
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { LogLevel, redact, type Logger } from '../logger';
import { TaskHandoff } from './taskHandoff';
import { MODERN_REVISION } from './era';

export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  protocolVersion?: string;
  /**
   * A request from the server got an error answer without reaching our handlers: the SDK refused it
   * (a schema it does not accept, a method nobody serves).
   */
  onRefusedRequest?: (method: string, reason: string) => void;
  /**
   * We sent a multi-round-trip retry (a request carrying `inputResponses` or `requestState`): its
   * result depends on inputs outside any cache key, so the response cache must not keep it.
   */
  onRetryRound?: () => void;
  /** Server→client requests still to be answered (id → method), and those that reached a handler. */
  private readonly serverRequests = new Map<RequestId, string>();
  private readonly handled = new Set<RequestId>();
  readonly tasks = new TaskHandoff();

  constructor(readonly inner: Transport, private readonly logger: Logger, private readonly secrets: () => readonly string[]) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = e => this.onerror?.(e);
    inner.onmessage = (m, extra) => {
      if (this.logger.logLevel === LogLevel.Trace) this.logger.trace(`← ${redact(JSON.stringify(m), this.secrets())}`);
      if ('method' in m && 'id' in m) this.serverRequests.set(m.id, m.method);
      this.onmessage?.(this.tasks.received(this.modern && 'result' in m ? completeByDefault(m) : m), extra);
    };
  }

  get sessionId(): string | undefined { return this.inner.sessionId; }

  start(): Promise<void> { return this.inner.start(); }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.logger.logLevel === LogLevel.Trace) this.logger.trace(`→ ${redact(JSON.stringify(message), this.secrets())}`);
    // Shape checks, not the SDK's type guards: those run a schema parse per message (most of the
    // host's CPU per call); the transport below has parsed what arrived, and we built what we send.
    if ('method' in message && 'id' in message && isRetryRound(message.params)) this.onRetryRound?.();
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      const method = this.serverRequests.get(message.id);
      if (method !== undefined) {
        this.serverRequests.delete(message.id);
        if ('error' in message && !this.handled.has(message.id)) this.onRefusedRequest?.(method, message.error.message);
        this.handled.delete(message.id);
      }
    }
    this.tasks.sent(message);
    return this.inner.send(message, options);
  }

  /** Our handler got the server's request `id` (an error answer to it is then ours, not a refusal). */
  reached(id: RequestId): void { this.handled.add(id); }

  close(): Promise<void> { this.tasks.clear(); return this.inner.close(); }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    // Revisions are dates: every revision from 2026-07-28 on has the tasks extension.
    this.tasks.active = version >= MODERN_REVISION;
    this.inner.setProtocolVersion?.(version);
  }

  /** Revisions are dates: 2026-07-28 and later have `resultType` (and no `initialize`). */
  private get modern(): boolean { return this.protocolVersion !== undefined && this.protocolVersion >= MODERN_REVISION; }
}

/**
 * Spec 2026-07-28 (basic/index, ResultType): "clients MUST treat an absent `resultType` as
 * `complete`". The SDK 2.4.0 refuses such a result from a 2026-07-28 server (it reads the rule as
 * meant for earlier servers only); the conformance suite (sep-2322-default-result-type-complete)
 * and the spec's own wording say accept it. Only a result object without the field gains
 * `resultType: "complete"`; nothing else of the message changes (a result that is not an object
 * stays as it is, for the SDK to reject).
 */
export function completeByDefault(m: JSONRPCMessage): JSONRPCMessage {
  const result = (m as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null || Array.isArray(result) || 'resultType' in result) return m;
  return { ...m, result: { ...result, resultType: 'complete' } } as JSONRPCMessage;
}

function isRetryRound(params: unknown): boolean {
  return typeof params === 'object' && params !== null && ('inputResponses' in params || 'requestState' in params);
}
