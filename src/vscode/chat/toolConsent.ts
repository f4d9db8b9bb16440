/**
 * The one place that decides whether a model may use a server: tool calls (from @mcp and from the
 * `mcpHost_callTool` language-model tool) and resource reads (`mcpHost_readResource`). Approvals are
 * the core's structured records (see core/tools/toolApproval.ts), stored in globalState for servers
 * the user declared and in workspaceState for the workspace's own, bound to the declaration scope
 * the host controller reports for the server right now.
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { ToolApprovals, type ApprovalTarget, type ServerScope } from '../../core';
import { ReadOnlySnapshots } from '../readOnlySnapshots';
import { confirmResourceRead, confirmToolCall } from './toolConfirmation';
import { approvalSettings } from './toolSettings';

export class ToolConsent implements vscode.Disposable {
  readonly approvals: ToolApprovals;
  private readonly snapshots = new ReadOnlySnapshots('mcp-host-consent');

  constructor(
    state: { readonly globalState: vscode.Memento; readonly workspaceState: vscode.Memento },
    private readonly scopeOf: (server: string) => ServerScope | undefined,
    private readonly isSandboxed: (server: string) => boolean = () => false,
  ) {
    this.approvals = new ToolApprovals({ user: state.globalState, workspace: state.workspaceState });
  }

  private target(server: string): ApprovalTarget { return { server, scope: this.scopeOf(server), sandboxed: this.isSandboxed(server) }; }

  /** Who allowed the call (`tool`, `server`, `readOnly`, `user:once`, …), or undefined when the user denied it. */
  async toolCall(server: string, tool: Tool, args: unknown, token?: vscode.CancellationToken): Promise<string | undefined> {
    const target = this.target(server);
    const check = await this.approvals.checkTool(target, tool, approvalSettings());
    if (check.approvedBy) return check.approvedBy;
    const decision = await confirmToolCall({ server, tool, args, changed: check.changed }, this.snapshots, token);
    if (decision === 'deny') return undefined;
    if (decision === 'tool' || decision === 'server') await this.approvals.grantTool(target, tool, decision);
    return `user:${decision}`;
  }

  /** Whether a model may read `uri` of `server` (asks unless the user allowed every read of that server). */
  async resourceRead(server: string, uri: string, token?: vscode.CancellationToken): Promise<boolean> {
    const target = this.target(server);
    if (this.approvals.resourcesApproved(target)) return true;
    const decision = await confirmResourceRead(server, uri, token);
    if (decision === 'server') await this.approvals.grantResources(target);
    return decision !== 'deny';
  }

  dispose(): void { this.snapshots.dispose(); }
}
