/**
 * One MCP Host server as an SDK `Server` for one gateway client: every request is answered from the
 * host's own connection (its catalogue, its request path with timeouts, budgets, OAuth and both
 * protocol eras), never from a second connection to the real server. Progress and cancellation go
 * through; the real server's sampling, elicitation and roots stay with the host (this server never
 * asks its client for them). A server that is not running answers with the host's message at once.
 * Everything of the server's that the client puts before a model is cleaned as @mcp cleans it
 * (`modelFacing.ts`).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { ProtocolError, Server, type ServerContext } from '@modelcontextprotocol/server';
import type { McpHost } from '../host';
import type { ServerConnection } from '../connection/serverConnection';
import { MAX_INSTRUCTIONS_PER_SERVER } from '../tools/serverInstructions';
import { budgetResult, estimateTextTokens, RESULT_SCHEME, resultTokenBudget, type ResultStore } from '../tools/resultBudget';
import { cleanCallResult, cleanContents, cleanInstructions, cleanListed, cleanPrompt, cleanPromptResult, cleanTool } from './modelFacing';
import { offeredTools, serverRefusal, toolRefusal } from './toolFilter';
import { findTools, GATEWAY_CALL_TOOL, GATEWAY_FIND_TOOLS, gatewayTools, isGatewayTool, listPrompts, listTools } from './listBounds';
import { modelText } from '../text/modelBlock';
import { verifiedSkillRead } from '../skills/skillDirectory';
import { BLOCKED_RESULT } from '../tools/resultReview';
import type { GatewayCall, GatewayClientInfo, GatewayPolicy } from './types';
import { redact, redactValue } from '../redact';

/** JSON-RPC internal error: what a client gets when the host cannot answer. */
const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

export interface ProxyContext {
  readonly host: McpHost;
  readonly server: string;
  readonly client: GatewayClientInfo;
  readonly policy: () => GatewayPolicy;
  readonly results: ResultStore;
  /** Consent for one call (the gateway decides who is asked). */
  readonly consent: (call: GatewayCall) => Promise<boolean>;
  /** The result gate: whether the client may have this result (held until it answers); absent: always. */
  readonly review?: (call: GatewayCall, text: string, signal: AbortSignal) => Promise<boolean>;
  readonly onCall: (server: string, tool: string) => void;
  /** The tools this client is shown (after the policy's filter); absent: as the host lists them. */
  readonly present?: (tools: readonly Tool[]) => Promise<Tool[]>;
  /** A `resources/subscribe` of this client (the gateway forwards updates). */
  readonly subscribed?: (uri: string, on: boolean) => void;
  /** Values removed from tool results and error texts for this client (GatewayOptions.secrets). */
  readonly secrets?: () => Iterable<string> | undefined;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function createProxyServer(ctx: ProxyContext): Server {
  const { host, server: name } = ctx;
  const conn = host.get(name);
  // What the client puts before the model, as @mcp gives it: none of an excluded server, the rest
  // without what a reader cannot see and within the per-server cap.
  const instructions = conn?.instructions && !serverRefusal(ctx.policy(), name)
    ? cleanInstructions(conn.instructions, MAX_INSTRUCTIONS_PER_SERVER) : undefined;
  // Named as the user declared it, never by the server's own title: VS Code names a server's tools after
  // its serverInfo (`mcp_<title or name>_<tool>`), so a title of "github" would put a server's tools under
  // another server's name in the tool picker, tool sets and `#` references.
  const server = new Server(
    { name, version: conn?.serverInfo?.version ?? '0.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      ...(instructions ? { instructions } : {}),
    },
  );
  /** The connection when it runs (a starting one is waited for, within its request timeout); else undefined. */
  const running = async (signal: AbortSignal): Promise<ServerConnection | undefined> => {
    const c = host.get(name);
    if (!c || serverRefusal(ctx.policy(), name)) return undefined;
    try { await c.ready({ signal }, 'the request'); return c; } catch { return undefined; }
  };
  /** The connection for a request that cannot be answered empty: our message as the error otherwise. */
  const require = async (method: string, signal: AbortSignal, policy = ctx.policy()): Promise<ServerConnection> => {
    const refused = serverRefusal(policy, name);
    if (refused) throw new ProtocolError(INVALID_PARAMS, refused);
    const c = host.get(name);
    if (!c) throw new ProtocolError(INVALID_PARAMS, `No MCP server named "${name}" is configured in MCP Host.`);
    try { await c.ready({ signal }, method); } catch (e) { throw new ProtocolError(INTERNAL_ERROR, message(e)); }
    return c;
  };
  // The real server's log, as its log gate admitted it (cleaned, cut, rate-bounded), to this client at
  // the level the client set (`logging/setLevel`, kept per session by the SDK's server).
  const forwarding = conn?.serverLog.onDidForward(({ level, line }) => {
    void server.sendLoggingMessage({ level, data: line }, server.transport?.sessionId).catch(() => undefined);
  });
  const closed = server.onclose;
  server.onclose = () => { forwarding?.dispose(); closed?.(); };
  const relay = <T>(p: Promise<T>): Promise<T> => p.catch((e: unknown) => { throw e instanceof ProtocolError ? e : new ProtocolError(INTERNAL_ERROR, message(e)); });

  server.setRequestHandler('tools/list', async (_req, rc) => {
    const c = await running(rc.mcpReq.signal);
    const offered = c ? offeredTools(ctx.policy(), name, c.catalog.get('tools') as Tool[]).map(cleanTool) : [];
    // Bounded (listBounds.ts): a server of thousands of tools must not grow the client by gigabytes.
    const { listed, left } = listTools(offered);
    const shown = ctx.present && listed.length ? await ctx.present(listed) : listed;
    return { tools: left ? [...shown, ...gatewayTools(name, offered.length, left)] : shown };
  });
  server.setRequestHandler('tools/call', async (req, rc) => {
    const hidden = ctx.secrets?.();
    const secrets = hidden ? [...hidden] : undefined;
    const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text: secrets ? redact(text, secrets) : text }], isError: true });
    // The settings as they are when the call comes in, read once: the whole call is decided by them.
    const policy = ctx.policy();
    let c: ServerConnection;
    try { c = await require('tools/call', rc.mcpReq.signal, policy); } catch (e) { return fail(message(e)); }
    const args = req.params.arguments ?? {};
    const catalogue = c.catalog.get('tools') as Tool[];
    const offered = offeredTools(policy, name, catalogue);
    /** Runs `tool`; `relayed`: asked for through call_tool, so the client confirmed nothing that names it. */
    const run = async (conn: ServerConnection, tool: string, toolArgs: Record<string, unknown>, relayed: boolean): Promise<CallToolResult> => {
      const definition = conn.tool(tool);
      const refused = toolRefusal(policy, name, tool, definition);
      if (refused) return fail(refused);
      const call: GatewayCall = { client: ctx.client, server: name, tool, arguments: toolArgs, ...(definition?.annotations ? { annotations: definition.annotations } : {}), ...(relayed ? { relayed } : {}) };
      if (!await ctx.consent(call)) {
        return fail(`The user did not allow ${ctx.client.label} to run the tool "${tool}" of MCP server "${name}".`);
      }
      ctx.onCall(name, tool);
      let result: CallToolResult;
      try {
        result = await conn.callTool(tool, toolArgs, { signal: rc.mcpReq.signal, onprogress: progressRelay(req.params._meta?.progressToken, rc) });
      } catch (e) { return fail(message(e)); }
      const cleaned = secrets ? redactValue(cleanCallResult(result), secrets) as CallToolResult : cleanCallResult(result);
      // Held here until the user allowed it: nothing of a blocked result (text, structured content, images) goes out.
      if (ctx.review && !await ctx.review(call, resultText(cleaned), rc.mcpReq.signal)) return fail(BLOCKED_RESULT);
      return server.projectCallToolResult(withinBudget(ctx, policy, tool, cleaned), definition?.outputSchema as Record<string, unknown> | undefined);
    };
    if (!isGatewayTool(req.params.name, offered)) return run(c, req.params.name, args, false);
    if (req.params.name === GATEWAY_FIND_TOOLS) return { content: [{ type: 'text', text: findTools(name, catalogue, offered, typeof args.query === 'string' ? args.query : '') }] };
    const inner = args.name;
    const innerArgs = args.arguments;
    if (typeof inner !== 'string' || (innerArgs !== undefined && (typeof innerArgs !== 'object' || innerArgs === null || Array.isArray(innerArgs)))) {
      return fail(`${GATEWAY_CALL_TOOL} takes { "name": a tool's name, "arguments": an object }.`);
    }
    return run(c, inner, (innerArgs ?? {}) as Record<string, unknown>, true);
  });
  server.setRequestHandler('resources/list', async (_req, rc) => {
    const c = await running(rc.mcpReq.signal);
    return { resources: c ? c.catalog.get('resources').map(cleanListed) as never[] : [] };
  });
  server.setRequestHandler('resources/templates/list', async (_req, rc) => {
    const c = await running(rc.mcpReq.signal);
    return { resourceTemplates: c ? c.catalog.get('resourceTemplates').map(cleanListed) as never[] : [] };
  });
  server.setRequestHandler('resources/read', async (req, rc) => {
    const uri = req.params.uri;
    if (uri.startsWith(`${RESULT_SCHEME}:`)) {
      // A result this server returned that was over the budget; other servers' results are not readable here.
      const kept = ctx.results.get(uri);
      if (!kept || kept.server !== name || serverRefusal(ctx.policy(), name)) throw new ProtocolError(INVALID_PARAMS, `Unknown resource ${uri}.`);
      return { contents: [{ uri, mimeType: 'text/plain', text: modelText(kept.text) }] };
    }
    const c = await require('resources/read', rc.mcpReq.signal);
    // A file of one of the server's skills is passed on only once verified against its listing (SECURITY.md §30).
    const read = await relay(verifiedSkillRead(host.skills, c, uri).then(v => v ?? c.readResource(uri, { signal: rc.mcpReq.signal })));
    return { ...read, contents: read.contents.map(cleanContents) };
  });
  server.setRequestHandler('resources/subscribe', async (req, rc) => {
    const c = await require('resources/subscribe', rc.mcpReq.signal);
    await relay(c.subscribe(req.params.uri));
    ctx.subscribed?.(req.params.uri, true);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', req => {
    // The host's own subscription stays: other clients (and the host's views) may still want updates.
    ctx.subscribed?.(req.params.uri, false);
    return {};
  });
  server.setRequestHandler('prompts/list', async (_req, rc) => {
    const c = await running(rc.mcpReq.signal);
    return { prompts: c ? listPrompts(c.catalog.get('prompts').map(p => cleanPrompt(p as { description?: string; arguments?: object[] }))) as never[] : [] };
  });
  server.setRequestHandler('prompts/get', async (req, rc) => {
    const c = await require('prompts/get', rc.mcpReq.signal);
    return cleanPromptResult(await relay(c.getPrompt(req.params.name, req.params.arguments ?? {}, { signal: rc.mcpReq.signal, onprogress: progressRelay(req.params._meta?.progressToken, rc) })));
  });
  server.setRequestHandler('completion/complete', async (req, rc) => {
    const c = await require('completion/complete', rc.mcpReq.signal);
    // A server without completions offers none; the client's input box simply stays without suggestions.
    if (!c.capabilities?.completions) return { completion: { values: [] } };
    return relay(c.complete(req.params, { signal: rc.mcpReq.signal }));
  });
  return server;
}

/** What the user reviews of a result: its text blocks, embedded texts and structured content. */
function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map(b => b.type === 'text' ? b.text : b.type === 'resource' && 'text' in b.resource ? b.resource.text : `[${b.type}]`);
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}

/** The real server's progress for this request, sent on to the client under the client's token. */
function progressRelay(token: string | number | undefined, rc: ServerContext) {
  if (token === undefined) return undefined;
  return (p: { progress: number; total?: number; message?: string }) => {
    void rc.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) } }).catch(() => undefined);
  };
}

/**
 * The result budget of `chat.maxResultTokens`, as @mcp applies it: text over the budget is kept whole
 * in the result store (readable with `resources/read` here, and with `mcpHost_readResource` in VS
 * Code) and the client gets a summary and the start. Images and other blocks pass unchanged.
 */
function withinBudget(ctx: ProxyContext, policy: GatewayPolicy, tool: string, result: CallToolResult): CallToolResult {
  const content = result.content ?? [];
  const texts = content.filter((b): b is { type: 'text'; text: string } => b.type === 'text');
  const text = texts.map(b => b.text).join('\n');
  const budget = resultTokenBudget(ctx.server, 0, policy.maxResultTokens);
  if (estimateTextTokens(text) <= budget) return result;
  const cut = budgetResult(ctx.results, ctx.server, tool, text, budget);
  const rest = content.filter(b => b.type !== 'text');
  return { ...result, content: [{ type: 'text', text: cut.text }, ...rest] };
}
