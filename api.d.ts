// MCP Host's exported API (`activate()` of the extension "mcp-host.mcp-host"), for other extensions.
// Generated from src/vscode/api.ts by `npm run api`; do not edit. Needs @types/vscode and, for the
// MCP payload types, @modelcontextprotocol/client (types only) in the consuming project.
/**
 * The API returned from `activate()` for other extensions:
 *
 *   const api = await vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host')!.activate();
 *   const result = await api.callTool('everything', 'echo', { message: 'hi' });
 *
 * Versioned: `version` changes only when a member is removed or changes meaning. MCP payloads use
 * the types of `@modelcontextprotocol/client` (SDK 2.x; the payloads of protocol 2025-11-25 and 2026-07-28).
 *
 * Every extension gets this same object, so it is a frozen façade: everything it returns is a copy
 * (changing a listed tool changes nothing the host or another extension sees), and no member reaches
 * the core, its secret store or the UI. MCP Host's own tests use hooks that exist only in development
 * builds (test/hooks).
 */
import type * as vscode from 'vscode';
import type { CallToolResult, GetPromptResult, Implementation, Prompt, ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
export type ServerState = 'stopped' | 'starting' | 'running' | 'error';
/** Which list of a server changed. */
export type CatalogKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
/** `error-result`: the tool answered with `isError: true`; `failed`: the call itself failed. */
export type ToolOutcome = 'ok' | 'error-result' | 'failed' | 'denied' | 'disabled' | 'cancelled';
/** One tool execution (chat, language model tools, commands or this API). */
export interface ToolActivity {
    /** ISO 8601. */
    readonly time: string;
    readonly server: string;
    readonly tool: string;
    readonly args: unknown;
    readonly outcome: ToolOutcome;
    readonly durationMs: number;
    /** The result's content (or the error message) as text. */
    readonly result: string;
    /** How the call was approved ("extension API" for calls through this API). */
    readonly approvedBy?: string;
}
export interface McpServerSummary {
    readonly name: string;
    readonly state: ServerState;
    /** Why the server is in its state (error text, restart countdown). */
    readonly message?: string;
    readonly transport: 'stdio' | 'http' | 'sse';
    readonly serverInfo?: Implementation;
    readonly protocolVersion?: string;
    readonly instructions?: string;
}
export interface McpCallOptions {
    readonly signal?: AbortSignal;
    readonly onprogress?: (progress: {
        progress: number;
        total?: number;
        message?: string;
    }) => void;
}
export interface McpHostApi {
    /** 2 since the façade replaced direct access to the core (`host`, views, `reload`, `logUri` and `testing` are gone). */
    readonly version: 2;
    /**
     * Every configured server with its state, also right after `activate()`: until the host has loaded (a fraction
     * of a second) each enabled one is listed as `starting` (a disabled one `stopped`); `onDidChangeServers` then fires with the host's list, and
     * `onDidChangeServerState` with each change from there. The user's choices apply to every member below as they
     * apply to language models: a server the user cut off from models (disabled, in `mcpHost.chat.excludedServers`,
     * or every tool in `mcpHost.tools.disabled`) is in no catalogue list, its calls, reads and prompts reject saying which
     * choice, and its `instructions` are left out here.
     */
    listServers(): McpServerSummary[];
    /** Tools of running servers that {@link callTool} accepts (not disabled, not app-only, server not excluded); `server` narrows to one server. */
    listTools(server?: string): {
        server: string;
        tool: Tool;
    }[];
    /** Resources of running servers the user did not cut off from models; `server` narrows to one server. */
    listResources(server?: string): {
        server: string;
        resource: Resource;
    }[];
    listResourceTemplates(server?: string): {
        server: string;
        template: ResourceTemplate;
    }[];
    listPrompts(server?: string): {
        server: string;
        prompt: Prompt;
    }[];
    /**
     * Calls a tool directly (no confirmation: extensions are trusted code); recorded in the tool activity log.
     * The user's choices apply as they do for language models: a tool in `mcpHost.tools.disabled`, a tool of a
     * server in `mcpHost.chat.excludedServers` or of a disabled server, and an app-only tool
     * (`_meta.ui.visibility` without `"model"`) are refused (the promise rejects, saying which choice).
     */
    callTool(server: string, tool: string, args?: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult>;
    /** Rejects for a server the user cut off from models (disabled, every tool disabled, or excluded from chat). */
    readResource(server: string, uri: string, options?: McpCallOptions): Promise<ReadResourceResult>;
    /** Rejects, as {@link readResource} does, for a server the user cut off from models. */
    getPrompt(server: string, name: string, args?: Record<string, string>, options?: McpCallOptions): Promise<GetPromptResult>;
    /** Servers were added or removed. */
    readonly onDidChangeServers: vscode.Event<void>;
    readonly onDidChangeServerState: vscode.Event<{
        server: string;
        state: ServerState;
        message?: string;
    }>;
    readonly onDidChangeCatalog: vscode.Event<{
        server: string;
        kind: CatalogKind;
    }>;
    /**
     * Milliseconds MCP Host's activation took: evaluating its activation bundle plus the activate() call (VS Code's
     * own wait between the two, for the extension's context, is not counted; servers start afterwards, in the background).
     */
    readonly activationMs: number;
    /** The tool activity log's recent entries (oldest first, at most 500): a copy taken on each read. */
    readonly toolActivity: readonly ToolActivity[];
}
