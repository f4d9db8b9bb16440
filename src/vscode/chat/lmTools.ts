/**
 * Language-model tools for other participants and agent mode: find MCP tools, call one, read a
 * resource. `mcpHost_callTool` is one VS Code tool in front of every MCP tool, so VS Code's own
 * confirmation (and its "Always allow") cannot stand for consent to a particular MCP tool: the call
 * goes through the same per-(server, tool) approval and confirmation as @mcp, inside `invoke`.
 * Reads ask per server too, and neither reaches a server or tool the user disabled.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core';
import { toAbortSignal } from '../cancellation';
import { enabledTools } from './toolCatalog';
import type { ToolConsent } from './toolConsent';
import type { ToolInvoker } from './toolInvoker';
import { isServerDisabledForModels } from './toolSettings';

interface FindInput { query?: string }
interface CallInput { server: string; tool: string; arguments?: Record<string, unknown> }
interface ReadInput { server: string; uri: string }

const text = (s: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

export function registerLanguageModelTools(host: McpHost, invoker: ToolInvoker, consent: ToolConsent): vscode.Disposable[] {
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
        return { invocationMessage: vscode.l10n.t('Running MCP tool {0} ({1})', String(options.input.tool), String(options.input.server)) };
      },
      async invoke(options, token) {
        const { server, tool } = options.input;
        const r = await invoker.invoke({ server, tool, args: options.input.arguments ?? {}, token });
        return text(r.text);
      },
    }),
    vscode.lm.registerTool<ReadInput>('mcpHost_readResource', {
      prepareInvocation(options) {
        return { invocationMessage: vscode.l10n.t('Reading {0} from MCP server {1}', String(options.input.uri), String(options.input.server)) };
      },
      async invoke(options, token) {
        const { server, uri } = options.input;
        const conn = host.get(server);
        if (!conn) return text(`No MCP server named "${server}" is configured.`);
        // A server whose tools are all disabled is cut off from models; its resources too.
        if (conn.declaration.disabled || isServerDisabledForModels(server)) return text(`The user disabled the MCP server "${server}" for language models.`);
        if (!await consent.resourceRead(server, uri, token)) return text(`The user denied reading ${uri} from MCP server "${server}".`);
        const abort = toAbortSignal(token);
        try {
          const r = await conn.readResource(uri, { signal: abort.signal });
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
