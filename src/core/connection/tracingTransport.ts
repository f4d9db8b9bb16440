/**
 * Wraps a transport to (1) log the protocol trace at trace level, redacted, and only when the
 * logger is at trace (no JSON.stringify cost otherwise), and (2) learn the negotiated protocol
 * version, which the SDK hands to transports through `setProtocolVersion`, and (3) hand tool calls
 * answered with a task to their callers ({@link TaskHandoff}).
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
      this.onmessage?.(this.tasks.received(m), extra);
    };
  }

  get sessionId(): string | undefined { return this.inner.sessionId; }

  start(): Promise<void> { return this.inner.start(); }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.logger.logLevel === LogLevel.Trace) this.logger.trace(`→ ${redact(JSON.stringify(message), this.secrets())}`);
    // Shape checks, not the SDK's type guards: those run a schema parse per message (most of the
    // host's CPU per call); the transport below has parsed what arrived, and we built what we send.
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
}
