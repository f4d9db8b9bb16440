/**
 * `mcp-host serve`: the same gateway as in VS Code, over the same declarations, without VS Code. It
 * prints the address and a token for a terminal agent, and leaves a file for `mcp-host call` so that
 * repeated calls reuse the running servers instead of starting them each time.
 *
 * The file is a key to the servers: it lives in the user's runtime (or state) folder, 0700, and is
 * 0600; a file that is not ours, is a link, is readable by others, or points anywhere but 127.0.0.1 is
 * ignored (another local user could otherwise plant one and receive our calls and their arguments).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { matchesToolPattern, startGateway, type GatewayCall, type McpHost } from '../core';
import type { Output } from './output';
import { escapeJsonText, shellWord } from './visible';

interface ServeRecord { readonly pid: number; readonly url: string; readonly token: string }

/** Where the record of a `serve` for these declarations (and this workspace) is kept. */
export function serveFile(workspace: string, servers: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_RUNTIME_DIR || env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  const key = createHash('sha256').update(JSON.stringify({ workspace, servers })).digest('hex').slice(0, 32);
  return path.join(base, 'mcp-host', `serve-${key}.json`);
}

function writeRecord(file: string, record: ServeRecord): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/** The record, if it is ours alone and names a live process on 127.0.0.1; undefined otherwise. */
export function readRecord(file: string): ServeRecord | undefined {
  try {
    const dir = fs.lstatSync(path.dirname(file));
    const st = fs.lstatSync(file);
    const uid = process.getuid?.();
    if (!st.isFile() || !dir.isDirectory() || (st.mode & 0o077) !== 0 || (dir.mode & 0o022) !== 0) return undefined;
    if (uid !== undefined && (st.uid !== uid || dir.uid !== uid)) return undefined;
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ServeRecord>;
    if (typeof r.pid !== 'number' || typeof r.token !== 'string' || typeof r.url !== 'string') return undefined;
    if (!/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/$/.test(r.url)) return undefined;
    process.kill(r.pid, 0);
    return r as ServeRecord;
  } catch { return undefined; }
}

export interface ServeOptions {
  readonly host: McpHost;
  readonly out: Output;
  readonly file: string;
  readonly port?: number;
  /** `server/tool` or `server/*` patterns an agent may run without being asked. */
  readonly allow: readonly string[];
  readonly interactive: boolean;
}

/** Serves until SIGINT/SIGTERM; returns the exit code. */
export async function serve(o: ServeOptions): Promise<number> {
  const servers = o.host.servers.map(s => s.name);
  let cliId = '';
  const gateway = await startGateway({
    host: o.host, logger: o.out.logger('gateway', 3), ...(o.port !== undefined ? { port: o.port } : {}),
    approve: call => (call.client.id === cliId ? Promise.resolve(true) : approveAgentCall(o, call)),
  });
  // `mcp-host call` is the user's own command, as a cold call is: its client runs what it is asked to.
  const cli = gateway.issueAgentToken('mcp-host call', servers);
  cliId = cli.id;
  const agent = gateway.issueAgentToken('terminal agent', servers);
  writeRecord(o.file, { pid: process.pid, url: cli.url, token: cli.token });
  o.out.line(`MCP Host gateway on ${gateway.origin} serving ${servers.length} server(s).`);
  o.out.line(`Token for a terminal agent (keep it secret): ${agent.token}`);
  for (const s of servers) o.out.line(`  ${s}: ${agent.url}${encodeURIComponent(s)}`);
  const first = servers[0] ?? '<server>';
  o.out.line('Connect a Streamable HTTP client with the header "Authorization: Bearer <token>", e.g.:');
  o.out.line(`  claude mcp add --transport http ${first} ${agent.url}${encodeURIComponent(first)} --header "Authorization: Bearer ${agent.token}"`);
  o.out.line('Tools the agent calls are asked about here, unless --allow server/tool (or server/*) names them. Ctrl-C stops.');
  await new Promise<void>(resolve => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  try { fs.unlinkSync(o.file); } catch { /* already gone */ }
  gateway.dispose();
  return 0;
}

let asking: Promise<unknown> = Promise.resolve();

async function approveAgentCall(o: ServeOptions, call: GatewayCall): Promise<boolean> {
  if (matchesToolPattern(o.allow, call.server, call.tool)) return true;
  if (!o.interactive) {
    o.out.error(`refused: ${call.client.label} wanted to run ${call.server}/${call.tool} (allow it with --allow ${call.server}/${call.tool})`);
    return false;
  }
  // One question at a time: answers must not be typed into the wrong one.
  // What runs is what is shown: every argument (an agent can pad the start so the rest falls past a cut),
  // and the server's names with nothing a terminal obeys (a name can erase the line and draw another).
  const what = `${shellWord(call.server)}/${shellWord(call.tool)} with ${escapeJsonText(JSON.stringify(call.arguments ?? {}))}`;
  const answer = asking.then(() => ask(`${call.client.label} wants to run ${what}. Allow? [y/N] `));
  asking = answer.catch(() => undefined);
  return answer;
}

function ask(question: string): Promise<boolean> {
  return new Promise(resolve => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    rl.question(question, a => { rl.close(); resolve(/^y(es)?$/i.test(a.trim())); });
  });
}

/**
 * `mcp-host call` through a running `serve` of the same declarations; undefined when there is none
 * (or it does not answer), so the caller starts the server as before.
 */
export async function callThroughServe(file: string, server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult | undefined> {
  const record = readRecord(file);
  if (!record) return undefined;
  const client = new Client({ name: 'mcp-host-cli', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${record.url}${encodeURIComponent(server)}`), { requestInit: { headers: { Authorization: `Bearer ${record.token}` } } }));
  } catch { return undefined; }
  try {
    return await client.callTool({ name: tool, arguments: args }, { signal, timeout: timeoutMs }) as CallToolResult;
  } finally {
    // The SDK's close() leaves the session open on the server: end it, so repeated calls hold none.
    await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}
