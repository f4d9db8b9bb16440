/**
 * Runs an MCP tool on behalf of a model: checks that it and its server are enabled, asks for
 * confirmation unless approved (ToolConsent), reports MCP progress and task status, turns cancellation into
 * `notifications/cancelled` (or `tasks/cancel`), and records every execution in the activity log.
 * Failures become error results for the model instead of exceptions.
 */
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { BLOCKED_RESULT, MAX_BATCH_CALLS, TOO_MANY_CALLS, toolResultParts, toolResultTexts, toolVisibility, type McpHost, type ServerConnection, type ToolResultPart } from '../../core';
import { toAbortSignal } from '../cancellation';
import { inlineCode, markdownText } from './markdownText';
import type { ToolActivityLog, ToolOutcome } from './activityLog';
import type { BatchAnswer, ToolConsent } from './toolConsent';
import { isToolEnabled } from './toolSettings';

export interface InvokeRequest {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly token?: vscode.CancellationToken;
  /** Progress for chat, as Markdown (what the server chose is in code spans). */
  readonly onProgress?: (message: string) => void;
  /** Who asks: a model (default), or the server's own MCP App (which may call only tools visible to apps). */
  readonly caller?: 'model' | 'app';
  /** The user's answer to this call in a prompt that listed several calls of the turn (ToolConsent.batch). */
  readonly batch?: BatchAnswer;
}

/** A tool a model ran (from @mcp, the language-model tools or the API), with what the server answered. */
export interface ToolRun {
  readonly server: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly result: CallToolResult;
}

export interface InvokeResult {
  readonly outcome: ToolOutcome;
  readonly parts: readonly ToolResultPart[];
  /** What the model should read (errors included, so it can recover). */
  readonly text: string;
  /** The same, one text per result part (structured content is a part of its own). */
  readonly texts: readonly string[];
  readonly isError: boolean;
  /** The server's answer as received (validated against the output schema), when there is one. */
  readonly result?: CallToolResult;
}

/** Wraps a call so a -32042 "URL elicitation required" error is shown to the user and the call retried. */
export type UrlElicitationRetry = <T>(call: () => Promise<T>, server: string) => Promise<T>;

export class ToolInvoker implements vscode.Disposable {
  private readonly _onDidRunTool = new vscode.EventEmitter<ToolRun>();
  /** Fires after a model's call got an answer (not for calls of apps, which get theirs directly). */
  readonly onDidRunTool = this._onDidRunTool.event;

  constructor(private readonly host: McpHost, private readonly log: ToolActivityLog, private readonly consent: ToolConsent, private readonly urlRetry: UrlElicitationRetry = call => call()) {}

  async invoke(req: InvokeRequest): Promise<InvokeResult> {
    const started = Date.now();
    const finish = (outcome: ToolOutcome, texts: string | string[], parts: ToolResultPart[] = [], approvedBy?: string, result?: CallToolResult): InvokeResult => {
      const list = typeof texts === 'string' ? [texts] : texts;
      const text = list.join('\n');
      this.log.add({ server: req.server, tool: req.tool, args: req.args, outcome, durationMs: Date.now() - started, result: text, approvedBy: approvedBy && req.caller === 'app' ? `${approvedBy} (app)` : approvedBy });
      return { outcome, parts, text, texts: list, isError: outcome !== 'ok', ...(result ? { result } : {}) };
    };
    const conn = this.host.get(req.server);
    if (!conn) return finish('failed', vscode.l10n.t('No MCP server named "{0}" is configured.', req.server));
    const abort = toAbortSignal(req.token);
    try {
      return await this.run(req, conn, abort.signal, finish);
    } finally {
      abort.dispose();
    }
  }

  private async run(req: InvokeRequest, conn: ServerConnection, signal: AbortSignal, finish: (outcome: ToolOutcome, texts: string | string[], parts?: ToolResultPart[], approvedBy?: string, result?: CallToolResult) => InvokeResult): Promise<InvokeResult> {
    const failed = (e: unknown, approvedBy?: string) => req.token?.isCancellationRequested
      ? finish('cancelled', vscode.l10n.t('The tool call was cancelled.'), [], approvedBy)
      : finish('failed', vscode.l10n.t('The tool call failed: {0}', e instanceof Error ? e.message : String(e)), [], approvedBy);
    // A server that is restarting has no catalogue yet: wait for it (bounded by its timeout) instead of
    // telling the model that the tool does not exist.
    try { await conn.ready({ signal }, 'tools/call'); } catch (e) { return failed(e); }
    const tool = conn.tool(req.tool);
    if (!tool) return finish('failed', vscode.l10n.t('Server "{0}" has no tool named "{1}".', req.server, req.tool));
    // MCP Apps: app-only tools are never run for a model, model-only tools never for an app.
    const visibility = toolVisibility(tool);
    if (!(req.caller === 'app' ? visibility.app : visibility.model)) return finish('failed', req.caller === 'app'
      ? vscode.l10n.t('The tool "{0}" of server "{1}" is not available to its app.', req.tool, req.server)
      : vscode.l10n.t('Server "{0}" has no tool named "{1}".', req.server, req.tool));
    if (!isToolEnabled(req.server, req.tool)) return finish('disabled', vscode.l10n.t('The user disabled the tool "{0}" of server "{1}".', req.tool, req.server));

    if (conn.declaration.disabled) return finish('disabled', vscode.l10n.t('The user disabled the MCP server "{0}".', req.server));

    // Every caller goes through our own per-(server, tool) consent, whatever VS Code decided about the caller.
    const consent = this.consent.forCall(req.server, req.caller);
    const approvedBy = await consent.toolCall(tool, req.args, { token: req.token, batch: req.batch });
    if (!approvedBy) return finish('denied', req.batch?.tooMany ? TOO_MANY_CALLS : vscode.l10n.t('The user denied running the tool "{0}".', req.tool));
    if (req.token?.isCancellationRequested) return finish('cancelled', vscode.l10n.t('The tool call was cancelled.'), [], approvedBy);

    // Chat shows progress as Markdown: every piece the server chose (title, progress and status text) is a code span.
    const label = markdownText(tool.title ?? tool.annotations?.title ?? req.tool, 100);
    req.onProgress?.(vscode.l10n.t('Running {0} ({1})…', label, inlineCode(req.server)));
    try {
      const result = await this.urlRetry(() => conn.callTool(req.tool, req.args, {
        signal,
        onprogress: p => req.onProgress?.(`${label}: ${markdownText(`${p.total ? `${p.progress}/${p.total}` : p.progress}`, 40)}${p.message ? ` — ${markdownText(p.message, 300)}` : ''}`),
        onTaskStatus: t => req.onProgress?.(`${label}: ${markdownText(String(t.status), 40)}${t.statusMessage ? ` — ${markdownText(t.statusMessage, 300)}` : ''}`),
      }), req.server);
      const parts = toolResultParts(result, tool);
      const texts = toolResultTexts(parts, result.isError);
      // The result gate: a model reads nothing of a result the user blocked (or did not answer about).
      if (req.caller !== 'app' && !await consent.reviewResult(tool, texts.join('\n'), req.token)) return finish('denied', BLOCKED_RESULT, [], approvedBy);
      if (req.caller !== 'app') this._onDidRunTool.fire({ server: req.server, tool, args: req.args, result });
      // The OS reports a sandbox refusal as a plain "permission denied"/"no such file": say where it comes from.
      return finish(result.isError ? 'error-result' : 'ok', result.isError && conn.sandboxed ? [...texts, `\n${sandboxNote(req.server)}`] : texts, parts, approvedBy, result);
    } catch (e) {
      return failed(e, approvedBy);
    }
  }

  /**
   * The user's answers to several calls of one model turn, asked in one prompt (ToolConsent.batch).
   * Only calls that could reach a confirmation are listed: a call to a missing, disabled or app-only
   * tool is refused by {@link invoke} as it would be alone.
   */
  async batch(calls: readonly { server: string; tool: string; args: Record<string, unknown> }[], token?: vscode.CancellationToken): Promise<(BatchAnswer | undefined)[]> {
    const askable = calls.map(c => {
      const conn = this.host.get(c.server);
      const tool = conn?.tool(c.tool);
      return conn && tool && !conn.declaration.disabled && isToolEnabled(c.server, c.tool) && toolVisibility(tool).model ? { server: c.server, tool, args: c.args } : undefined;
    });
    const listed = askable.flatMap((c, i) => c ? [i] : []);
    const answers = await this.consent.batch(listed.map(i => askable[i]!), MAX_BATCH_CALLS, token);
    const out: (BatchAnswer | undefined)[] = calls.map(() => undefined);
    for (const [n, i] of listed.entries()) out[i] = answers[n];
    return out;
  }

  dispose(): void { this._onDidRunTool.dispose(); }
}

function sandboxNote(server: string): string {
  return vscode.l10n.t('(Server "{0}" runs in the sandbox: it may write only inside its roots and its data folder, cannot read secret folders such as ~/.ssh, and reaches only the allowed hosts. "Permission denied", "no such file", "read-only file system" or a refused connection may come from the sandbox.)', server);
}
