/**
 * Step 2 of a start, once per transport tried: the transport for `kind` (a process for stdio, a
 * connection for Streamable HTTP or legacy SSE), traced and bounded, and the SDK client over it.
 * Nothing is sent yet; the handshake step connects.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { TransportType } from '../../config/types';
import type { OAuthSession } from '../../auth';
import { listenForInspector } from '../../dev/inspector';
import { redact } from '../../logger';
import { isSocketUrl } from '../../config/socketUrl';
import { summarizeRefusal } from '../errors';
import { asStdioTransport } from '../era';
import { StdioTransport } from '../stdioTransport';
import { TracingTransport } from '../tracingTransport';
import { createHttpTransport, createStdioTransport } from '../transports';
import type { PreparedLaunch, StartContext } from './context';

export interface OpenedTransport {
  readonly kind: TransportType;
  /** The transport as created (a {@link StdioTransport} for local servers). */
  readonly inner: Transport;
  readonly transport: TracingTransport;
  /** What the client connects to: the traced transport inside the server's budget. */
  readonly wire: Transport;
  readonly client: Client;
  readonly inspector?: ReturnType<typeof listenForInspector>;
}

export function openTransport(ctx: StartContext, prepared: PreparedLaunch, kind: TransportType, session: OAuthSession | undefined): OpenedTransport {
  const { launch } = prepared;
  const sandboxRun = prepared.sandboxRun && (() => {
    const run = prepared.sandboxRun!();
    run.onPlant(p => ctx.onPlant(p));
    return run;
  });
  const inner: Transport = launch.type === 'stdio'
    ? createStdioTransport(launch, ctx.budget.serverLog, ctx.secrets(), ctx.budget.limits, stdioLaunch => ctx.takeEarlyProcess(stdioLaunch), sandboxRun)
    : createHttpTransport(kind as 'http' | 'sse', launch.url, launch.headers, session?.fetch, ctx.budget.limits);
  if (inner instanceof StdioTransport) ctx.stderr.follow(inner);
  const inspector = prepared.debugpyPort !== undefined ? { port: () => prepared.debugpyPort, close: () => undefined }
    : inner instanceof StdioTransport && prepared.inspectorPick ? listenForInspector(inner, prepared.inspectorPick) : undefined;
  const transport = new TracingTransport(inner, ctx.logger, () => ctx.secrets());
  const client = ctx.createClient(transport, kind);
  transport.onRefusedRequest = (method, reason) => ctx.onRefusedRequest(method, summarizeRefusal(reason));
  transport.onRetryRound = () => ctx.cache.interrupt();
  // Arguments and URL paths may hold resolved `${input:…}` values (`--token ghp_…`): redacted like env values.
  ctx.logger.info(redact(`Starting (${kind}${launch.type === 'stdio' ? `: ${launch.command} ${launch.args.join(' ')}` : `: ${isSocketUrl(launch.url) ? `${launch.url.protocol}//${launch.url.pathname} (socket)` : `${launch.url.origin}${launch.url.pathname}`}`})`, ctx.secrets()));
  const wire = inner instanceof StdioTransport ? asStdioTransport(ctx.budget.wrap(transport, inner), () => inner.pid) : ctx.budget.wrap(transport);
  return { kind, inner, transport, wire, client, inspector };
}
