/**
 * The one place that decides whether a model or an MCP App may use a server: tool calls (from @mcp,
 * the `mcpHost_callTool` language-model tool, the tool runner and apps) and resource reads
 * (`mcpHost_readResource`). Approvals are the core's structured records (see
 * core/tools/toolApproval.ts), stored in globalState for servers the user declared and in
 * workspaceState for the workspace's own, bound to the declaration scope the host controller reports
 * for the server right now and to the program that declaration runs; records of declarations that
 * are gone or changed program are deleted whenever the servers setting changes. Sampling's standing
 * permission ("always allow", the settings' policy "allow") is bound the same way ({@link sampling}).
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { memoryStorage, ResultReviews, reviewResultsMode, ToolApprovals, toolDefinitionHash, type ApprovalLifetime, type ApprovalSettings, type ApprovalStorage, type ApprovalTarget, type ServerScope, type ToolCaller } from '../../core';
import type { SamplingGrants } from '../../core/sampling';
import { SECTION } from '../config';
import { workspaceIdentity } from '../inputs';
import { readSetting } from '../settingsReader';
import { confirmBatch, type BatchCall } from './batchConfirmation';
import { confirmResult } from './resultConfirmation';
import { ReadOnlySnapshots } from '../readOnlySnapshots';
import { declaredProgram } from './declaredPrograms';
import { confirmResourceRead, confirmToolCall } from './toolConfirmation';
import { approvalSettings } from './toolSettings';

/** A call the user answered in a batch prompt, bound to the definition it was shown with. */
export interface BatchAnswer {
  readonly allowed: boolean;
  readonly definition: string;
  /** Past the prompt's bound: not asked about, so not run. */
  readonly tooMany?: boolean;
}

export interface ToolCallOptions {
  readonly token?: vscode.CancellationToken;
  /** Who relays the model's call (a terminal agent's name), shown in the prompt. */
  readonly via?: string;
  readonly batch?: BatchAnswer;
}

/** What one call's consent reads once: the approval target and the approval settings. */
interface CallInputs {
  readonly target: () => Promise<ApprovalTarget>;
  readonly settings: () => ApprovalSettings;
}

/** The consent of one call (ToolConsent.forCall). */
export interface CallConsent {
  runsUnasked(tool: Tool): Promise<boolean>;
  /** Who allowed the call, or undefined when the user denied it. */
  toolCall(tool: Tool, args: unknown, options?: ToolCallOptions): Promise<string | undefined>;
  reviewResult(tool: Tool, text: string, token?: vscode.CancellationToken): Promise<boolean>;
}

/** The workspace a "this workspace" approval is held in (none in an empty window). */
const heldIn = () => workspaceIdentity() || undefined;

export class ToolConsent implements vscode.Disposable {
  readonly approvals: ToolApprovals;
  private readonly reviews: ResultReviews;
  private readonly snapshots = new ReadOnlySnapshots('mcp-host-consent');
  private readonly changed = new vscode.EventEmitter<void>();
  /** An approval was granted, revoked, pruned or bound (what {@link runsUnasked} answers may have changed). */
  readonly onDidChangeApprovals = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private pruning: Promise<void>;

  constructor(
    state: { readonly globalState: vscode.Memento; readonly workspaceState: vscode.Memento },
    private readonly scopeOf: (server: string) => ServerScope | undefined,
    private readonly isSandboxed: (server: string) => boolean = () => false,
    /** Declarations of discovered servers (mcpHost.discovery) by host name; `discoveredReady` settles once they are known. */
    private readonly discovered: (server: string) => unknown = () => undefined,
    discoveredReady: Promise<unknown> = Promise.resolve(),
  ) {
    // Pruning before the discovered files are read would delete every approval of their servers.
    this.pruning = discoveredReady.then(() => undefined, () => undefined);
    // Every write of the records goes through here, whoever makes it (a confirmation, Manage Tool Approvals, a prune).
    const watched = (m: ApprovalStorage): ApprovalStorage => ({ get: key => m.get(key), update: async (key, value) => { await m.update(key, value); this.changed.fire(); } });
    // Session approvals live in this object's memory only: a reload or another window asks again.
    this.approvals = new ToolApprovals({ user: watched(state.globalState), workspace: watched(state.workspaceState), session: watched(memoryStorage()) }, heldIn);
    this.reviews = new ResultReviews(state.globalState);
    this.disposables.push(vscode.workspace.onDidChangeConfiguration(e => {
      if (['servers', 'tools.autoApprove', 'trustedServers', 'sampling'].some(k => e.affectsConfiguration(`${SECTION}.${k}`))) void this.prune();
      if (['tools.autoApprove', 'trustedServers', 'sandbox.autoApproveTools'].some(k => e.affectsConfiguration(`${SECTION}.${k}`))) this.changed.fire();
    }));
    void this.prune();
  }

  /** Deletes the approvals of declarations that are gone or run another program now, binds the names the settings allow (serialised). */
  prune(): Promise<void> {
    this.pruning = this.pruning.then(() => this.approvals.prune((server, scope) => declaredProgram(server, scope, this.discovered), workspaceIdentity(), approvalSettings())).catch(() => undefined);
    return this.pruning;
  }

  /** Asked at every call: the env file may have changed since the last one. */
  private async target(server: string, caller: ToolCaller = 'model'): Promise<ApprovalTarget> {
    const scope = this.scopeOf(server);
    const declared = scope && await declaredProgram(server, scope, this.discovered);
    return { server, scope, program: declared?.program, workspace: declared?.workspace, sandboxed: this.isSandboxed(server), caller };
  }

  /**
   * One call's consent: the approval target (the declaration, its program, the workspace) is read once,
   * when first needed, for the call's approval and its result gate alike — both are about the program
   * that ran this call.
   */
  forCall(server: string, caller: ToolCaller = 'model'): CallConsent {
    let target: Promise<ApprovalTarget> | undefined;
    let settings: ApprovalSettings | undefined;
    const call: CallInputs = { target: () => target ??= this.target(server, caller), settings: () => settings ??= approvalSettings() };
    return {
      runsUnasked: async tool => (await this.approvals.checkTool(await call.target(), tool, call.settings())).approvedBy !== undefined,
      toolCall: (tool, args, options) => this.askTool(call, tool, args, options ?? {}),
      reviewResult: (tool, text, token) => this.review(server, call, tool, text, token),
    };
  }

  /** Whether a call of `tool` would run without asking the user (an approval, the user's settings, a trusted read-only tool). */
  runsUnasked(server: string, tool: Tool, caller: ToolCaller = 'model'): Promise<boolean> {
    return this.forCall(server, caller).runsUnasked(tool);
  }

  /** Who allowed the call (`tool`, `server`, `readOnly`, `user:once`, …), or undefined when the user denied it. */
  toolCall(server: string, tool: Tool, args: unknown, token?: vscode.CancellationToken, caller: ToolCaller = 'model', via?: string, batch?: BatchAnswer): Promise<string | undefined> {
    return this.forCall(server, caller).toolCall(tool, args, { token, via, batch });
  }

  private async askTool(call: CallInputs, tool: Tool, args: unknown, o: ToolCallOptions): Promise<string | undefined> {
    const t = await call.target();
    const check = await this.approvals.checkTool(t, tool, call.settings());
    if (check.approvedBy) return check.approvedBy;
    // A batch answer counts for the definition the user was shown; a tool redefined since asks on its own.
    if (o.batch && o.batch.definition === toolDefinitionHash(tool)) return o.batch.allowed ? 'user:once (batch)' : undefined;
    const decision = await confirmToolCall({ server: t.server, tool, args, changed: check.changed, programChanged: check.programChanged, caller: t.caller, via: o.via, inWorkspace: heldIn() !== undefined }, this.snapshots, o.token);
    if (decision === 'deny') return undefined;
    if (decision !== 'once') {
      const [kind, lifetime = 'always'] = decision.split(':') as ['tool' | 'server', ApprovalLifetime?];
      await this.approvals.grantTool(t, tool, kind, lifetime);
    }
    return `user:${decision}`;
  }

  /**
   * Several calls of one model turn answered together: the calls that would be asked (not those that
   * run unasked) go into one prompt when there are two or more. Returns an answer per call, undefined
   * for a call left to its own prompt; calls past the prompt's bound are answered "not allowed".
   */
  async batch(calls: readonly BatchCall[], limit: number, token?: vscode.CancellationToken): Promise<(BatchAnswer | undefined)[]> {
    const asked: number[] = [];
    for (const [i, c] of calls.entries()) if (!await this.runsUnasked(c.server, c.tool)) asked.push(i);
    const answers: (BatchAnswer | undefined)[] = calls.map(() => undefined);
    if (asked.length < 2) return answers;
    const decision = await confirmBatch(asked.map(i => calls[i]), this.snapshots, token);
    for (const [n, i] of asked.entries()) {
      const definition = toolDefinitionHash(calls[i].tool);
      if (n >= limit) answers[i] = { allowed: false, definition, tooMany: true };
      else if (decision !== 'each') answers[i] = { allowed: decision === 'all', definition };
    }
    return answers;
  }

  /**
   * The result gate: whether a model may read what `tool` returned (`mcpHost.tools.reviewResults`;
   * core/tools/resultReview.ts). Asks the user when the setting gates this tool; `true` when it does not.
   */
  reviewResult(server: string, tool: Tool, text: string, token?: vscode.CancellationToken): Promise<boolean> {
    return this.forCall(server).reviewResult(tool, text, token);
  }

  private async review(server: string, call: CallInputs, tool: Tool, text: string, token?: vscode.CancellationToken): Promise<boolean> {
    const mode = reviewResultsMode(readSetting<unknown>('tools.reviewResults'));
    const trusted = call.settings().trustedServers.includes(server) && this.scopeOf(server) === 'user';
    if (!await this.reviews.needsReview(mode, { server, program: (await call.target()).program, trusted }, tool)) return true;
    return confirmResult(server, tool.name, text, this.snapshots, token);
  }

  /** Whether a model may read `uri` of `server` (asks unless the user allowed every read of that server). */
  async resourceRead(server: string, uri: string, token?: vscode.CancellationToken): Promise<boolean> {
    const target = await this.target(server);
    if (this.approvals.resourcesApproved(target)) return true;
    const decision = await confirmResourceRead(server, uri, token);
    if (decision === 'server') await this.approvals.grantResources(target);
    return decision !== 'deny';
  }

  /** Sampling's standing permission for the sampling service, bound to the program behind the name. */
  readonly sampling: SamplingGrants = {
    check: async (server, settingsAllow) => this.approvals.checkSampling(await this.target(server.name), settingsAllow),
    grant: async server => this.approvals.grantSampling(await this.target(server.name)),
  };

  dispose(): void {
    this.snapshots.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
