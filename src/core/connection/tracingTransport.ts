/**
 * Wraps a transport to (1) log the protocol trace at trace level, redacted, and only when the
 * logger is at trace (no JSON.stringify cost otherwise), and (2) learn the negotiated protocol
 * version, which the SDK hands to transports through `setProtocolVersion`.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { LogLevel, redact, type Logger } from '../logger';

export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  protocolVersion?: string;

  constructor(readonly inner: Transport, private readonly logger: Logger, private readonly secrets: () => readonly string[]) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = e => this.onerror?.(e);
    inner.onmessage = (m, extra) => {
      if (this.logger.logLevel === LogLevel.Trace) this.logger.trace(`← ${redact(JSON.stringify(m), this.secrets())}`);
      this.onmessage?.(m, extra);
    };
  }

  get sessionId(): string | undefined { return this.inner.sessionId; }

  start(): Promise<void> { return this.inner.start(); }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.logger.logLevel === LogLevel.Trace) this.logger.trace(`→ ${redact(JSON.stringify(message), this.secrets())}`);
    return this.inner.send(message, options);
  }

  close(): Promise<void> { return this.inner.close(); }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}
