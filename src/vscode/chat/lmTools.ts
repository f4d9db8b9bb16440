/**
 * Language-model tools for other participants and agent mode: find MCP tools, call one, read a
 * resource. VS Code shows our `prepareInvocation` confirmation before `invoke` runs, so calls that are
 * not pre-approved are confirmed in VS Code's own UI.
 */
import * as vscode from 'vscode';
import { preApproval, type McpHost } from '../../core';
import { toAbortSignal } from '../cancellation';
import { enabledTools } from './toolCatalog';
import type { ToolInvoker } from './toolInvoker';
import { approvalSettings } from './toolSettings';

interface FindInput { query?: string }
interface CallInput { server: string; tool: string; arguments?: Record<string, unknown> }
interface ReadInput { server: string; uri: string }

const text = (s: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

export function registerLanguageModelTools(host: McpHost, invoker: ToolInvoker): vscode.Disposable[] {
  return [
    vscode.lm.registerTool<FindInput>('mcpHost_findTools', {
      invoke(options) {
        const q = (options.input.query ?? '').toLowerCase();
        const found = enabledTools(host).filter(t => !q || `${t.server} ${t.tool.name} ${t.tool.title ?? ''} ${t.tool.description ?? ''}`.toLowerCase().includes(q));
        if (!found.length) return text(q ? `No MCP tool matches "${q}".` : 'No MCP tools are available.');
        return text(found.map(t => JSON.stringify({ server: t.server, tool: t.tool.name, title: t.tool.title, description: t.tool.description, inputSchema: t.tool.inputSchema })).join('\n'));
      },
    }),
    vscode.lm.registerTool<CallInput>('mcpHost_callTool', {
      prepareInvocation(options) {
        const { server, tool } = options.input;
        const t = host.get(server)?.tool(tool);
        const invocationMessage = vscode.l10n.t('Running MCP tool {0} ({1})', tool, server);
        if (t && preApproval(approvalSettings(), server, t)) return { invocationMessage };
        return {
          invocationMessage,
          confirmationMessages: {
            title: vscode.l10n.t('Run MCP tool "{0}" from "{1}"?', tool, server),
            message: new vscode.MarkdownString(`${t?.description ?? ''}\n\n\`\`\`json\n${JSON.stringify(options.input.arguments ?? {}, null, 2)}\n\`\`\``),
          },
        };
      },
      async invoke(options, token) {
        const { server, tool } = options.input;
        const r = await invoker.invoke({ server, tool, args: options.input.arguments ?? {}, token, confirmed: true });
        return text(r.text);
      },
    }),
    vscode.lm.registerTool<ReadInput>('mcpHost_readResource', {
      prepareInvocation(options) {
        return { invocationMessage: vscode.l10n.t('Reading {0} from MCP server {1}', options.input.uri, options.input.server) };
      },
      async invoke(options, token) {
        const conn = host.get(options.input.server);
        if (!conn) return text(`No MCP server named "${options.input.server}" is configured.`);
        const abort = toAbortSignal(token);
        try {
          const r = await conn.readResource(options.input.uri, { signal: abort.signal });
          return text(r.contents.map(c => 'text' in c ? c.text : `[binary ${c.mimeType ?? 'data'}, ${Math.round(c.blob.length * 3 / 4)} bytes]`).join('\n\n'));
        } catch (e) {
          return text(`Reading the resource failed: ${e instanceof Error ? e.message : String(e)}`);
        } finally {
          abort.dispose();
        }
      },
    }),
  ];
}
