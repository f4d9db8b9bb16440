/**
 * Step 4 of a start: the client that answered becomes the connection's running client — change
 * subscriptions on a 2026 connection, the process id, the inspector's port, and the callbacks for a
 * close or a transport error. From here on the connection, not the attempt, owns the transport.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { TransportType } from '../../config/types';
import type { Logger } from '../../logger';
import { ListenSubscriptions } from '../listenSubscriptions';
import { StdioTransport } from '../stdioTransport';
import type { TracingTransport } from '../tracingTransport';
import type { Connected } from './connect';

export interface RunningClient {
  readonly client: Client;
  readonly transport: TracingTransport;
  readonly inner: Transport;
  readonly kind: TransportType;
  readonly protocolVersion?: string;
  readonly pid?: number;
  readonly inspectorPort?: number;
  /** Change notifications of a 2026-07-28 connection (`subscriptions/listen`); undefined on 2025-era ones. */
  readonly listens?: ListenSubscriptions;
}

export interface WireCallbacks {
  /** The connection closed (the process exited, the server hung up). */
  onClosed(inner: Transport): void;
  /** A transport error; a stream that broke may mean the server is gone. */
  onError(client: Client, error: Error): void;
}

export function wireClient(connected: Connected, logger: Logger, callbacks: WireCallbacks): RunningClient {
  const { client, transport, inner, kind, inspector } = connected;
  let listens: ListenSubscriptions | undefined;
  if (client.getProtocolEra() === 'modern') {
    listens = new ListenSubscriptions(client, client.getServerCapabilities() ?? {}, logger);
    listens.start().catch(() => { /* logged by ListenSubscriptions */ });
  }
  // Only what was announced before initialize was answered: later lines are the server's to forge.
  const inspectorPort = inspector?.port();
  inspector?.close();
  client.onclose = () => callbacks.onClosed(inner);
  client.onerror = e => callbacks.onError(client, e);
  return {
    client, transport, inner, kind, listens, inspectorPort,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? transport.protocolVersion,
    pid: inner instanceof StdioTransport ? inner.pid : undefined,
  };
}
