/**
 * Language-model tools for other participants and agent mode: find MCP tools, call one, read a
 * resource. `mcpHost_callTool` is one VS Code tool in front of every MCP tool, so VS Code's own
 * confirmation (and its "Always allow") cannot stand for consent to a particular MCP tool: the call
 * goes through the same per-(server, tool) approval and confirmation as @mcp, inside `invoke`.
 * Reads ask per server too, and neither reaches a server or tool the user disabled.
 */
import * as vscode from 'vscode';
import { estimateTextTokens, imagesForModel, inScope, MAX_PAGE_CHARS, resultTokenBudget, modelToolDescription, pageOf, parseScope, plainText, RESULT_SCHEME, type McpHost } from '../../core';
import type { KeptResults } from './keptResults';
import type { LateContributions } from '../lazy/contract';
import { toAbortSignal } from '../cancellation';
import { callToolMessage, readResourceMessage } from './invocationMessages';
import { catalogIndex, enabledTools } from './toolCatalog';
import type { ToolConsent } from './toolConsent';
import type { ToolInvoker } from './toolInvoker';
import { canSendImages, imageParts } from './modelImages';
import { readSetting } from '../settingsReader';
import { chatExcludedServers, isServerDisabledForModels, toolSets } from './toolSettings';

interface FindInput { query?: string; scope?: string }
interface CallInput { server: string; tool: string; arguments?: Record<string, unknown> }
interface ReadInput { server?: string; uri: string; offset?: number; length?: number }

/** Tools one mcpHost_findTools call returns, schemas included. */
const MAX_FOUND_LM_TOOLS = 20;

const text = (s: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

/** `register`: the activation entry's (LateContributions.registerTool), which registered the tools before the host loaded. */
export function registerLanguageModelTools(host: McpHost, invoker: ToolInvoker, consent: ToolConsent, kept: KeptResults, register: LateContributions['registerTool']): vscode.Disposable[] {
  return [
    register<FindInput>('mcpHost_findTools', {
      invoke(options) {
        // The same index and ranking as @mcp's find_tools; disabled tools and stopped servers are not in it.
        const q = (options.input.query ?? '').trim();
        let all = enabledTools(host);
        if (options.input.scope) {
          const scope = parseScope(String(options.input.scope), host.servers.map(c => c.name), toolSets(), true);
          if (scope.unknown.length || !scope.names.length) return text(`No MCP server or tool set is named ${scope.unknown.join(', ') || String(options.input.scope)}.`);
          all = all.filter(t => inScope(scope, t.server, t.tool.name));
        }
        const found = q ? catalogIndex(all).search(q, MAX_FOUND_LM_TOOLS).map(h => h.tool) : all.slice(0, MAX_FOUND_LM_TOOLS);
        if (!found.length) return text(q ? `No MCP tool matches "${plainText(q, { singleLine: true, maxLength: 200 })}".` : 'No MCP tools are available.');
        return text(found.map(t => JSON.stringify({ server: t.server, tool: t.tool.name, description: modelToolDescription(t.server, t.tool), inputSchema: t.tool.inputSchema })).join('\n'));
      },
    }),
    register<CallInput>('mcpHost_callTool', {
      prepareInvocation(options) {
        return { invocationMessage: callToolMessage(host, options.input) };
      },
      async invoke(options, token) {
        const { server, tool } = options.input;
        if (chatExcludedServers().includes(server)) return text(`The user excluded the MCP server "${server}" from chat.`);
        const r = await invoker.invoke({ server, tool, args: options.input.arguments ?? {}, token });
        // Images go along as image parts, as @mcp sends them (the placeholders stay): this tool does not
        // know the calling model, so VS Code's budget for it (or the result budget setting) bounds them.
        const budget = options.tokenizationOptions?.tokenBudget ?? resultTokenBudget(server, 0, readSetting<unknown>('chat.maxResultTokens'));
        const images = imagesForModel(r.parts, canSendImages(), budget, estimateTextTokens(r.text));
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(r.text), ...imageParts(images) as vscode.LanguageModelTextPart[]]);
      },
    }),
    register<ReadInput>('mcpHost_readResource', {
      prepareInvocation(options) {
        return { invocationMessage: readResourceMessage(options.input) };
      },
      async invoke(options, token) {
        const { server, uri, offset, length } = options.input;
        // Results kept by MCP Host (too large for one read) page from memory; they came from an allowed call.
        if (String(uri).startsWith(`${RESULT_SCHEME}:`)) {
          const source = kept.store.get(String(uri))?.server;
          if (source && isServerDisabledForModels(source)) return text(`The user disabled the MCP server "${source}" for language models.`);
          return text(kept.read(String(uri), offset, length));
        }
        if (!server) return text('Name the MCP server whose resource to read.');
        const conn = host.get(server);
        if (!conn) return text(`No MCP server named "${server}" is configured.`);
        // A server whose tools are all disabled is cut off from models; its resources too.
        if (conn.declaration.disabled || isServerDisabledForModels(server)) return text(`The user disabled the MCP server "${server}" for language models.`);
        if (!await consent.resourceRead(server, uri, token)) return text(`The user denied reading ${uri} from MCP server "${server}".`);
        const abort = toAbortSignal(token);
        try {
          const r = await conn.readResource(uri, { signal: abort.signal });
          const all = r.contents.map(c => 'text' in c ? c.text : `[binary ${c.mimeType ?? 'data'}, ${Math.round(c.blob.length * 3 / 4)} bytes]`).join('\n\n');
          return text(offset !== undefined || length !== undefined || all.length > MAX_PAGE_CHARS ? pageOf(uri, all, offset, length) : all);
        } catch (e) {
          return text(`Reading the resource failed: ${e instanceof Error ? e.message : String(e)}`);
        } finally {
          abort.dispose();
        }
      },
    }),
  ];
}
