/**
 * This window's gateway (core/gateway): started the first time something needs it (VS Code's chat
 * asking for the native definitions, a terminal agent being connected), closed with the window, so
 * a token of a closed window reaches nothing. The user's choices apply as in @mcp: disabled tools,
 * excluded servers and the result budget are read on every request, and a change of them or of an
 * approval tells the clients to list again.
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { startGateway, type Gateway, type GatewayCall, type GatewayPolicy, type Logger, type McpHost } from '../../core';
import { SECTION } from '../config';
import { readSetting } from '../settingsReader';
import { chatExcludedServers, disabledPatterns } from '../chat/toolSettings';
import type { CallConsent, ToolConsent } from '../chat/toolConsent';
import type { KeptResults } from '../chat/keptResults';
import type { NativeConsent } from './nativeConsent';

const POLICY_SETTINGS = ['tools.disabled', 'chat.excludedServers', 'chat.maxResultTokens'];

export function gatewayPolicy(): GatewayPolicy {
  return { disabledTools: disabledPatterns(), excludedServers: chatExcludedServers(), maxResultTokens: readSetting<unknown>('chat.maxResultTokens') };
}

export class GatewayService implements vscode.Disposable {
  private starting?: Promise<Gateway>;
  private gateway?: Gateway;
  private disposed = false;
  /** Per call, until the gateway lets go of it. */
  private readonly calls = new WeakMap<GatewayCall, CallConsent>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly host: McpHost,
    private readonly logger: Logger,
    private readonly consent: ToolConsent,
    private readonly native: NativeConsent,
    private readonly kept: KeptResults,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration(e => {
        if (POLICY_SETTINGS.some(k => e.affectsConfiguration(`${SECTION}.${k}`))) this.gateway?.policyChanged();
      }),
      // Which tools VS Code may run unasked is in the lists it was given: an approval's change lists again.
      consent.onDidChangeApprovals(() => this.gateway?.policyChanged()),
    );
  }

  /** The running gateway, started on first use. */
  get(): Promise<Gateway> {
    if (this.disposed) return Promise.reject(new Error(vscode.l10n.t('MCP Host is shutting down.')));
    this.starting ??= startGateway({
      host: this.host,
      logger: this.logger,
      policy: gatewayPolicy,
      results: this.kept.store,
      approve: call => this.approveAgent(call),
      windowConsent: (call, tool) => this.native.approveWindowCall(call, tool, this.consentOf(call)),
      reviewResult: (call, tool, text, signal) => this.reviewResult(call, tool, text, signal),
      presentTools: (client, server, tools) => client.kind === 'window' ? this.native.present(server, tools) : Promise.resolve([...tools]),
    }).then(g => {
      if (this.disposed) { g.dispose(); throw new Error(vscode.l10n.t('MCP Host is shutting down.')); }
      this.gateway = g;
      return g;
    }, (e: unknown) => {
      this.starting = undefined;
      throw e;
    });
    return this.starting;
  }

  /** The gateway if it was started. */
  get current(): Gateway | undefined { return this.gateway; }

  /** The consent of one gateway call, shared by its approval and its result gate (the gateway hands both the same call). */
  private consentOf(call: GatewayCall): CallConsent {
    let c = this.calls.get(call);
    if (!c) { c = this.consent.forCall(call.server); this.calls.set(call, c); }
    return c;
  }

  /** A terminal agent's call: MCP Host's own consent, naming the agent (its approvals are the user's). */
  private async approveAgent(call: GatewayCall): Promise<boolean> {
    const tool = this.host.get(call.server)?.tool(call.tool);
    if (!tool) return false;
    return await this.consentOf(call).toolCall(tool, call.arguments, { via: call.client.label }) !== undefined;
  }

  /** The result gate for a client's call: the same as @mcp's; the gateway holds the result meanwhile (and blocks it when it ends). */
  private async reviewResult(call: GatewayCall, tool: Tool | undefined, text: string, signal: AbortSignal): Promise<boolean> {
    if (!tool) return false;
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.consentOf(call).reviewResult(tool, text, cancel.token);
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.disposables) d.dispose();
    this.gateway?.dispose();
    this.gateway = undefined;
  }
}
