/**
 * `mcp-host serve`: the same gateway as in VS Code, over the same declarations, without VS Code. It
 * prints the address and a token for a terminal agent, and leaves a file for `mcp-host call` so that
 * repeated calls reuse the running servers instead of starting them each time.
 *
 * The file is a key to the servers (serveRecord.ts keeps it the user's alone). Its token reaches no
 * more than a fresh `mcp-host call` of the user would run unasked: the servers of files named with -c,
 * and the workspace's own servers only while they are trusted as declared now (`mcp-host trust`); a
 * server `serve` runs on `--yes` or a "this once" answer is not reachable through it, so a process
 * that reads the record gets no run the user's consent was needed for. The token ends with `serve`.
 */
import * as readline from 'node:readline';
import { matchesToolPattern, startGateway, type GatewayCall, type McpHost } from '../core';
import type { Output } from './output';
import { removeRecord, writeRecord } from './serveRecord';
import { escapeJsonText, shellWord } from './visible';

export { readRecord, serveFile } from './serveRecord';

export interface ServeOptions {
  readonly host: McpHost;
  readonly out: Output;
  readonly file: string;
  readonly port?: number;
  /** `server/tool` or `server/*` patterns an agent may run without being asked. */
  readonly allow: readonly string[];
  readonly interactive: boolean;
  /** Of these servers, those a fresh `mcp-host call` would run without asking (asked again at each call). */
  readonly runUnasked: (servers: readonly string[]) => Promise<readonly string[]>;
  /** What a cold `mcp-host call` redacts from its output (resolved inputs, secret environment values). */
  readonly secrets: () => Iterable<string>;
}

/** Serves until SIGINT/SIGTERM/SIGHUP (its terminal closed); returns the exit code. */
export async function serve(o: ServeOptions): Promise<number> {
  const servers = o.host.servers.map(s => s.name);
  let cliId = '';
  const gateway = await startGateway({
    host: o.host, logger: o.out.logger('gateway', 3), ...(o.port !== undefined ? { port: o.port } : {}),
    approve: call => (call.client.id === cliId ? recordMayRun(o, call.server) : approveAgentCall(o, call)),
    // `mcp-host call` through serve prints what a cold call would: the values serve resolved are redacted for it.
    secrets: client => (client.id === cliId ? o.secrets() : undefined),
  });
  // `mcp-host call` is the user's own command: its token runs what a fresh `call` would run unasked.
  const reachable = await o.runUnasked(servers);
  const cli = reachable.length ? gateway.issueAgentToken('mcp-host call', reachable) : undefined;
  cliId = cli?.id ?? '';
  const agent = gateway.issueAgentToken('terminal agent', servers);
  const unkept = cli && writeRecord(o.file, { pid: process.pid, url: cli.url, token: cli.token });
  if (!cli) o.out.error('mcp-host call will start its own servers: none of these is trusted as declared now (run "mcp-host trust" in the folder)');
  else if (unkept) o.out.error(`mcp-host call will start its own servers: no record kept (${unkept})`);
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
    // A closed terminal: without this the record would outlive serve, naming a port anyone may take next.
    process.once('SIGHUP', resolve);
  });
  if (cli) removeRecord(o.file, cli.token);
  gateway.dispose();
  return 0;
}

/** A call with the record's token: refused when a fresh `call` would now ask (trust revoked, an env file changed). */
async function recordMayRun(o: ServeOptions, server: string): Promise<boolean> {
  if ((await o.runUnasked([server])).includes(server)) return true;
  o.out.error(`refused: mcp-host call wanted to run a tool of ${shellWord(server)}, which is not trusted as declared now (run "mcp-host trust", or call it with --yes)`);
  return false;
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

