/**
 * `mcp-host call` through a running `mcp-host serve` (its record: serveRecord.ts). This is the warm path,
 * so it speaks Streamable HTTP by hand instead of through the SDK's client: loading the SDK (and the
 * core that holds it) costs a warm call more than the call itself (≈ 200 ms of module loading against a
 * few ms of loopback traffic). It is the client side of one exchange with our own gateway: initialize,
 * initialized, one tools/call, then the session is ended so repeated calls hold none.
 *
 * The answer is the gateway's, which passes the server's result through: only its shape is checked
 * here (a result object with a content list); the printing cleans what it shows (commands.ts).
 */
import * as http from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { readRecord } from './serveRecord';

const PROTOCOL = '2025-11-25';
/** More than the gateway's result budget lets through: an answer past it is not our gateway's. */
const MAX_ANSWER_CHARS = 64 * 1024 * 1024;

/** A JSON-RPC error of the gateway or the server, worded as the SDK's client words it. */
export class ServeCallError extends Error {}

/** The call's result; undefined when no serve is running for these declarations (or it does not answer). */
export async function callThroughServe(file: string, server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult | undefined> {
  const record = readRecord(file);
  if (!record) return undefined;
  const url = new URL(`${record.url}${encodeURIComponent(server)}`);
  const base: Record<string, string> = { authorization: `Bearer ${record.token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  // One connection for the whole exchange (node:http, not fetch: loading fetch's implementation costs ≈ 25 ms).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, headers: Record<string, string>, body?: unknown) => exchange(url, agent, method, headers, body, deadline);
  let session: string | undefined;
  try {
    try {
      const init = await send('POST', base, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'mcp-host-cli', version: '1' } } });
      const id = init.headers['mcp-session-id'];
      session = typeof id === 'string' ? id : undefined;
      if (init.statusCode !== 200 || !session) { init.resume(); return undefined; }
      await answerTo(init, 1);
    } catch {
      // A record whose serve is gone (or does not speak to us): the call starts the server itself.
      return undefined;
    }
    const headers = { ...base, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL };
    try {
      (await send('POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).resume();
      const call = await send('POST', headers, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } });
      if (call.statusCode !== 200) { call.resume(); throw new ServeCallError(`the running serve answered HTTP ${call.statusCode}`); }
      return asCallToolResult(await answerTo(call, 2));
    } catch (e) {
      if (deadline.aborted && !signal.aborted) throw new ServeCallError(`MCP error -32001: Request timed out after ${timeoutMs} ms`);
      throw e;
    } finally {
      await exchange(url, agent, 'DELETE', headers, undefined, AbortSignal.timeout(2000)).then(r => r.resume(), () => undefined);
    }
  } finally {
    agent.destroy();
  }
}

/** One HTTP request on `agent`; resolves with the response once its head has arrived. */
function exchange(url: URL, agent: http.Agent, method: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url, { method, agent, signal, headers: { ...headers, ...(data !== undefined ? { 'content-length': String(Buffer.byteLength(data)) } : {}) } }, resolve);
    req.once('error', reject);
    req.end(data);
  });
}

/** The `result` of the JSON-RPC answer with `id`, from a JSON body or an SSE stream (whose other messages are notifications). */
async function answerTo(response: http.IncomingMessage, id: number): Promise<unknown> {
  const type = String(response.headers['content-type'] ?? '');
  const messages = type.includes('text/event-stream') ? sseMessages(response) : oneJson(response);
  try {
    for await (const m of messages) {
      // A request of the server's (it has a method) may carry the same id as ours: only an answer counts.
      if (!m || typeof m !== 'object' || (m as { id?: unknown }).id !== id || 'method' in m) continue;
      const { result, error } = m as { result?: unknown; error?: { code?: unknown; message?: unknown } };
      if (error) throw new ServeCallError(`MCP error ${String(error.code)}: ${String(error.message)}`);
      return result;
    }
  } finally {
    response.resume();
  }
  throw new ServeCallError('the running serve ended its answer without a result');
}

async function* oneJson(response: http.IncomingMessage): AsyncGenerator<unknown> {
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) {
    text += String(chunk);
    if (text.length > MAX_ANSWER_CHARS) throw new ServeCallError('the running serve\'s answer is larger than any tool result it passes on');
  }
  yield JSON.parse(text) as unknown;
}

/** The JSON `data` of each SSE event, in order. */
async function* sseMessages(response: http.IncomingMessage): AsyncGenerator<unknown> {
  response.setEncoding('utf8');
  let buffer = '';
  for await (const chunk of response) {
    buffer += String(chunk).replace(/\r\n?/g, '\n');
    if (buffer.length > MAX_ANSWER_CHARS) throw new ServeCallError('the running serve\'s answer is larger than any tool result it passes on');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(l.startsWith('data: ') ? 6 : 5)).join('\n');
      if (data) yield JSON.parse(data) as unknown;
    }
  }
}

function asCallToolResult(result: unknown): CallToolResult {
  const r = result as { content?: unknown } | null;
  if (!r || typeof r !== 'object' || !Array.isArray(r.content) || !r.content.every(isBlock)) {
    throw new ServeCallError('the running serve answered tools/call with something that is not a tool result');
  }
  return r as CallToolResult;
}

/** A content block with the fields its kind is printed from (commands.ts printBlock). */
function isBlock(b: unknown): boolean {
  if (!b || typeof b !== 'object') return false;
  const { type } = b as { type?: unknown };
  const str = (k: string) => typeof (b as Record<string, unknown>)[k] === 'string';
  if (type === 'text') return str('text');
  if (type === 'image' || type === 'audio') return str('data') && str('mimeType');
  if (type === 'resource_link') return str('uri');
  if (type === 'resource') { const r = (b as { resource?: unknown }).resource; return !!r && typeof r === 'object' && typeof (r as { uri?: unknown }).uri === 'string'; }
  return typeof type === 'string';
}
