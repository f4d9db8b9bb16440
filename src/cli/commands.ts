/** The CLI's commands on a started {@link McpHost}. Each returns the process exit code. */
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ConfigProblem, McpHost, ServerConnection } from '../core';
import type { Output } from './output';
import { failureText } from './stderrTail';

export interface CommandContext {
  readonly host: McpHost;
  readonly out: Output;
  readonly json: boolean;
  /** Problems of the files and of the declarations, each naming its server and field. */
  readonly problems: readonly ConfigProblem[];
  /** Where each server was declared. */
  readonly origin: ReadonlyMap<string, string>;
}

const counts = (c: ServerConnection) => ({
  tools: c.catalog.get('tools').length,
  resources: c.catalog.get('resources').length,
  resourceTemplates: c.catalog.get('resourceTemplates').length,
  prompts: c.catalog.get('prompts').length,
});

const status = (c: ServerConnection) => ({
  name: c.name,
  file: undefined as string | undefined,
  state: c.declaration.disabled ? 'disabled' : c.state,
  ...(c.state === 'running' ? {} : { error: failureText(c.message, c.state, c.stderrTail), ...(c.stderrTail.length ? { stderr: c.stderrTail } : {}) }),
  transport: c.declaration.type,
  ...(c.serverInfo ? { serverInfo: { name: c.serverInfo.name, version: c.serverInfo.version } } : {}),
});

/** A declaration or file problem as one line: `server "x" (field): message`. */
export function describeProblem(p: ConfigProblem): string {
  const where = p.server ? `server "${p.server}"${p.field ? ` (${p.field})` : ''}` : p.field ?? 'servers';
  return `${p.severity === 'error' ? 'error' : 'warning'}: ${where}: ${p.message}`;
}

/** Start every declared server and report; non-zero when a declaration is broken or a server does not run. */
export function check(ctx: CommandContext): number {
  const servers = ctx.host.servers.map(c => ({ ...status(c), file: ctx.origin.get(c.name), ...counts(c) }));
  const failed = servers.filter(s => s.state !== 'running' && s.state !== 'disabled');
  const errors = ctx.problems.filter(p => p.severity === 'error');
  const ok = !failed.length && !errors.length;
  if (ctx.json) {
    ctx.out.json({ ok, servers, problems: ctx.problems.map(p => ({ ...p, file: ctx.origin.get(p.server) })) });
  } else {
    for (const s of servers) {
      ctx.out.line(s.state === 'running'
        ? `ok    ${s.name}: running (${s.tools} tools, ${s.resources} resources, ${s.resourceTemplates} resource templates, ${s.prompts} prompts)`
        : `${s.state === 'disabled' ? 'skip ' : 'FAIL '} ${s.name}: ${s.state}${s.error ? ` — ${s.error}` : ''}`);
    }
    for (const p of ctx.problems) ctx.out.line(`${p.severity === 'error' ? 'FAIL ' : 'warn '} ${describeProblem(p).replace(/^(error|warning): /, '')}`);
    ctx.out.line(ok ? `${servers.length} server(s) ok` : `${failed.length + errors.length} failure(s)`);
  }
  return ok ? 0 : 1;
}

/** Servers with their tools, resources, templates and prompts. */
export function list(ctx: CommandContext): number {
  const servers = ctx.host.servers.map(c => ({
    ...status(c),
    file: ctx.origin.get(c.name),
    tools: c.catalog.get('tools'),
    resources: c.catalog.get('resources'),
    resourceTemplates: c.catalog.get('resourceTemplates'),
    prompts: c.catalog.get('prompts'),
  }));
  if (ctx.json) { ctx.out.json({ servers, problems: ctx.problems }); return 0; }
  for (const s of servers) {
    ctx.out.line(`${s.name} (${s.state}${s.error ? `: ${s.error}` : ''})`);
    const section = (title: string, items: readonly { name: string; description?: string }[], label: (i: never) => string = (i: { name: string; title?: string }) => (i.title ? `${i.name} (${i.title})` : i.name)) => {
      if (!items.length) return;
      ctx.out.line(`  ${title}:`);
      for (const i of items) ctx.out.line(`    ${oneLine(label(i as never))}${i.description ? ` — ${oneLine(i.description)}` : ''}`);
    };
    section('tools', s.tools);
    section('resources', s.resources, (r: { uri: string }) => r.uri);
    section('resource templates', s.resourceTemplates, (r: { uriTemplate: string }) => r.uriTemplate);
    section('prompts', s.prompts);
  }
  for (const p of ctx.problems) ctx.out.line(describeProblem(p));
  return 0;
}

/**
 * call/read/prompt on a server that did not start: its reason (with its last stderr lines) on stderr,
 * and with `--json` as `{ ok: false, server, state, error, stderr }` on stdout; undefined when it runs.
 */
function notRunning(ctx: CommandContext, server: string): number | undefined {
  const c = ctx.host.require(server);
  if (c.state === 'running') return undefined;
  const s = status(c);
  ctx.out.error(`server "${server}" is not running (${s.state}): ${s.error}`);
  if (ctx.json) ctx.out.json({ ok: false, ...s, file: ctx.origin.get(server) });
  return 1;
}

export async function call(ctx: CommandContext, server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<number> {
  const down = notRunning(ctx, server);
  if (down !== undefined) return down;
  const result = await ctx.host.require(server).callTool(tool, args, {
    signal,
    onprogress: p => ctx.out.progress(`${server}/${tool}: ${p.message ?? ''} ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}`),
  });
  return printCallResult(ctx, server, tool, result);
}

/** A tool result on stdout (as text or `--json`); the exit code says whether it was an error result. */
export function printCallResult(ctx: Pick<CommandContext, 'out' | 'json'>, server: string, tool: string, result: CallToolResult): number {
  if (ctx.json) ctx.out.json(result);
  else {
    for (const block of result.content ?? []) printBlock(ctx.out, block);
    if (!result.content?.length && result.structuredContent !== undefined) ctx.out.line(JSON.stringify(result.structuredContent, null, 2));
  }
  if (result.isError) { ctx.out.error(`${server}/${tool} returned an error result`); return 1; }
  return 0;
}

export async function read(ctx: CommandContext, server: string, uri: string, signal: AbortSignal): Promise<number> {
  const down = notRunning(ctx, server);
  if (down !== undefined) return down;
  const result: ReadResourceResult = await ctx.host.require(server).readResource(uri, { signal });
  if (ctx.json) { ctx.out.json(result); return 0; }
  for (const c of result.contents) {
    if ('text' in c && typeof c.text === 'string') ctx.out.line(c.text);
    else ctx.out.line(`[${c.mimeType ?? 'binary'} ${c.uri}, ${'blob' in c && typeof c.blob === 'string' ? Math.floor(c.blob.length * 3 / 4) : 0} bytes]`);
  }
  return 0;
}

export async function prompt(ctx: CommandContext, server: string, name: string, args: Record<string, string>, signal: AbortSignal): Promise<number> {
  const down = notRunning(ctx, server);
  if (down !== undefined) return down;
  const result: GetPromptResult = await ctx.host.require(server).getPrompt(name, args, { signal });
  if (ctx.json) { ctx.out.json(result); return 0; }
  if (result.description) ctx.out.line(`# ${oneLine(result.description)}`);
  for (const m of result.messages) {
    ctx.out.line(`${m.role}:`);
    printBlock(ctx.out, m.content as ContentBlock);
  }
  return 0;
}

function printBlock(out: Output, block: ContentBlock): void {
  switch (block.type) {
    case 'text': out.line(block.text); break;
    case 'image': case 'audio': out.line(`[${block.type} ${block.mimeType}, ${Math.floor(block.data.length * 3 / 4)} bytes]`); break;
    case 'resource_link': out.line(`[link ${block.uri}${block.name ? ` "${oneLine(block.name)}"` : ''}]`); break;
    case 'resource': {
      const r = block.resource;
      out.line('text' in r && typeof r.text === 'string' ? r.text : `[resource ${r.uri} ${r.mimeType ?? ''}]`);
      break;
    }
    default: out.line(JSON.stringify(block));
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
