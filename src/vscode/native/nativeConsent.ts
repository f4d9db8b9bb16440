/**
 * Consent in the native path: one question per call, never none where MCP Host would ask.
 *
 * VS Code's built-in MCP client confirms a tool call itself (naming server and tool) unless the tool
 * says `readOnlyHint` — a claim of the server, which MCP Host believes only for `trustedServers`.
 * So the tools this window's chat is shown carry `readOnlyHint: true` exactly when MCP Host's own
 * consent would run the call unasked (an approval, `tools.autoApprove`, a trusted read-only tool, a
 * sandboxed tool the user lets run) and never otherwise: VS Code then asks where MCP Host would, and
 * the gateway does not ask again. The gateway asks itself only where VS Code may have been told "no
 * need to ask" by a list that no longer holds (an approval revoked since): what each list said is
 * kept in workspace storage, as VS Code keeps its tool cache there. App UIs (`_meta.ui`) are left out
 * of the native lists: VS Code would let an app call its server's tools without any confirmation,
 * and MCP Host asks an app's calls apart from a model's.
 */
import type * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { GatewayCall } from '../../core';
import type { CallConsent, ToolConsent } from '../chat/toolConsent';

const PRESENTED_KEY = 'mcpHost.native.presentedUnasked';

const key = (server: string, tool: string) => JSON.stringify([server, tool]);

export class NativeConsent {
  /** One copy, changed synchronously: lists of several servers answered at once do not undo each other's entries. */
  private readonly presented: Record<string, boolean>;

  constructor(private readonly consent: ToolConsent, private readonly memento: vscode.Memento) {
    this.presented = { ...memento.get<Record<string, boolean>>(PRESENTED_KEY) };
  }

  /** `tools` of `server` as VS Code's chat should see them. */
  async present(server: string, tools: readonly Tool[]): Promise<Tool[]> {
    const out: Tool[] = [];
    for (const tool of tools) {
      const unasked = await this.consent.runsUnasked(server, tool);
      this.presented[key(server, tool.name)] = unasked;
      out.push(asPresented(tool, unasked));
    }
    await this.memento.update(PRESENTED_KEY, this.presented);
    return out;
  }

  /**
   * Whether a call of this window's chat may run. VS Code asked for every tool it was shown without
   * `readOnlyHint`; a tool it was shown with it runs if MCP Host still lets it run unasked, else MCP
   * Host asks now. A tool no list of ours named (nothing VS Code could have from us) is asked too, and
   * so is a tool run through the gateway's `call_tool`.
   */
  async approveWindowCall(call: GatewayCall, tool: Tool | undefined, consent: CallConsent = this.consent.forCall(call.server)): Promise<boolean> {
    if (!tool) return false;
    if (await consent.runsUnasked(tool)) return true;
    // VS Code confirmed a tool it was shown without readOnlyHint; through call_tool it confirmed nothing of this tool.
    if (!call.relayed && this.presented[key(call.server, tool.name)] === false) return true;
    return await consent.toolCall(tool, call.arguments) !== undefined;
  }
}

/** The tool with MCP Host's answer as its read-only hint and without an app UI. */
export function asPresented(tool: Tool, unasked: boolean): Tool {
  const { _meta, annotations, ...rest } = tool;
  const meta = _meta ? Object.fromEntries(Object.entries(_meta).filter(([k]) => k !== 'ui' && k !== 'ui/resourceUri')) : undefined;
  return {
    ...rest,
    annotations: { ...annotations, readOnlyHint: unasked },
    ...(meta && Object.keys(meta).length ? { _meta: meta } : {}),
  };
}
