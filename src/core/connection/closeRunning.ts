/** Small pieces of a connection's life: closing the running client, reporting a refused request. */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { redact, type Logger } from '../logger';
import type { HostPorts, ServerRef } from '../ports';
import { plainText, unlinked } from '../text/plainText';
import { errorText } from './errors';
import type { RunningClient } from './start/wireClient';

/** Closes a running client (a stdio server's whole process tree with it); `terminateSession`: DELETE an HTTP session first. */
export async function closeRunning(running: RunningClient, logger: Logger, terminateSession: boolean): Promise<void> {
  const { client, transport } = running;
  client.onclose = undefined;
  if (terminateSession && transport.inner instanceof StreamableHTTPClientTransport && transport.inner.sessionId) {
    // Spec: DELETE the session when leaving; bounded so a dead server cannot hang stop().
    await withTimeout(transport.inner.terminateSession(), 2000).catch(e => logger.debug(`Session DELETE failed: ${errorText(e)}`));
  }
  await client.close().catch(e => logger.debug(`Close failed: ${errorText(e)}`));
  logger.info('Stopped');
}

export interface RefusalReport {
  readonly logger: Logger;
  /** Methods whose refusal the embedder was told about (once per method). */
  readonly reported: Set<string>;
  readonly ports: HostPorts;
  readonly ref: ServerRef;
  readonly secrets: readonly string[];
}

/** Methods of one server the embedder is told about: a server naming each request differently gets no notification per request. */
const MAX_TOLD_METHODS = 5;

/**
 * A server's request refused before MCP Host could handle it: logged each time, the embedder told once
 * per method, for a few methods. The method is the server's text (an embedder shows it in a notification
 * that opens `[label](command:…)` links): cleaned to one short line that is no link.
 */
export function reportRefusal(r: RefusalReport, method: string, reason: string): void {
  const shown = unlinked(plainText(redact(method, r.secrets), { singleLine: true, maxLength: 100 }));
  r.logger.warn(redact(`Refused the server's ${shown} request before MCP Host could handle it: ${reason}`, r.secrets));
  if (r.reported.has(shown) || r.reported.size >= MAX_TOLD_METHODS) return;
  r.reported.add(shown);
  try { r.ports.onRefusedRequest?.(r.ref, shown, unlinked(redact(reason, r.secrets))); }
  catch (e) { r.logger.debug(`onRefusedRequest failed: ${errorText(e)}`); }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, rej) => { t = setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms); })]).finally(() => clearTimeout(t));
}
