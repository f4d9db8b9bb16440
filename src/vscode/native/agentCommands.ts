/**
 * **MCP: Connect a Terminal Agent…** and **MCP: Show Connected Terminal Agents**: a terminal agent
 * (Claude Code, Codex, Copilot CLI, any Streamable HTTP client) reaches the servers the user picked
 * through this window's gateway, with a token of its own. The consent names every server it will
 * reach; each tool call it makes is asked in this window unless the user allowed that tool. The token
 * lives in memory only (the gateway's), ends with the window and is shown once, in the snippet the
 * user asked for; it is never written to settings or logs. Revoking refuses it at once.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core';
import { InputFlowAction, MultiStepInput } from '../multiStepInput';
import { pickText } from '../pickText';
import { chatExcludedServers } from '../chat/toolSettings';
import { agentSnippet, type AgentKind } from './agentSnippets';
import type { GatewayService } from './gatewayService';
import { showInfo } from '../notify';

type Item<T> = vscode.QuickPickItem & { value: T };

const AGENTS: readonly { kind: AgentKind; label: string }[] = [
  { kind: 'claude', label: 'Claude Code' },
  { kind: 'codex', label: 'Codex' },
  { kind: 'copilot', label: 'Copilot CLI' },
  { kind: 'other', label: vscode.l10n.t('Another Streamable HTTP client') },
];

export function registerAgentCommands(host: McpHost, gateway: GatewayService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.connectAgent', () => connectAgent(host, gateway)),
    vscode.commands.registerCommand('mcpHost.showAgents', () => showAgents(gateway)),
  ];
}

async function connectAgent(host: McpHost, service: GatewayService): Promise<void> {
  const excluded = chatExcludedServers();
  const candidates = host.servers.filter(c => !c.declaration.disabled && !excluded.includes(c.name));
  if (!candidates.length) {
    void showInfo(vscode.l10n.t('No MCP server can be offered to a terminal agent: declare one, or enable one that is disabled or excluded from chat.'));
    return;
  }
  const title = vscode.l10n.t('Connect a Terminal Agent');
  let agent: (typeof AGENTS)[number] | undefined;
  let servers: string[] = [];
  let confirmed = false;
  const done = await MultiStepInput.run(async function whichAgent(input) {
    const picked = await input.showQuickPick<Item<(typeof AGENTS)[number]>>({
      title, step: 1, totalSteps: 3, placeholder: vscode.l10n.t('Which agent will connect?'),
      items: AGENTS.map(a => ({ label: a.label, value: a })),
    });
    if (!('value' in picked)) throw InputFlowAction.cancel;
    agent = picked.value;
    return async function whichServers(input: MultiStepInput) {
      const picks = await input.showQuickPickMany<Item<string>>({
        title, step: 2, totalSteps: 3, placeholder: vscode.l10n.t('The MCP servers {0} may reach', agent!.label),
        items: candidates.map(c => ({ label: pickText(c.name, 100), description: c.state, value: c.name })),
        validate: s => s.length ? undefined : vscode.l10n.t('Pick at least one server.'),
      });
      if (!Array.isArray(picks)) throw InputFlowAction.cancel;
      servers = picks.map(p => p.value);
      return async function consent(input: MultiStepInput) {
        const cancel: Item<boolean> = { label: `$(close) ${vscode.l10n.t('Cancel')}`, value: false };
        const answer = await input.showQuickPick<Item<boolean>>({
          title: vscode.l10n.t('Let {0} reach {1}?', agent!.label, servers.map(s => pickText(s, 100)).join(', ')),
          step: 3, totalSteps: 3, activeItem: cancel,
          placeholder: vscode.l10n.t('It gets a token of its own for these servers, through 127.0.0.1, until you revoke it or close this window. Each tool call asks you here unless you allowed the tool.'),
          items: [cancel, { label: `$(plug) ${vscode.l10n.t('Connect')}`, value: true }],
        });
        if (!('value' in answer) || !answer.value) throw InputFlowAction.cancel;
        confirmed = true;
      };
    };
  });
  if (!done || !confirmed || !agent || !servers.length) return;
  const gateway = await service.get();
  const { id, token, url } = gateway.issueAgentToken(agent.label, servers);
  const snippet = agentSnippet(agent.kind, { base: url, token, servers });
  // An untitled editor: the user copies it into the agent's configuration; nothing is saved by us.
  const doc = await vscode.workspace.openTextDocument({ language: snippet.language, content: snippet.content });
  await vscode.window.showTextDocument(doc, { preview: false });
  const revoke = vscode.l10n.t('Revoke');
  void showInfo(vscode.l10n.t('{0} can now reach {1} through MCP Host. The editor holds its address and token; it stops working when you revoke it or close this window.', agent.label, servers.join(', ')), revoke).then(choice => {
    if (choice === revoke) gateway.revoke(id);
  });
}

async function showAgents(service: GatewayService): Promise<void> {
  const gateway = service.current;
  if (!gateway?.agents.length) {
    void showInfo(vscode.l10n.t('No terminal agent is connected. Use "MCP: Connect a Terminal Agent…".'));
    return;
  }
  const title = vscode.l10n.t('Connected Terminal Agents');
  let chosen: { id: string; label: string } | undefined;
  let revoke = false;
  await MultiStepInput.run(async function which(input) {
    const picked = await input.showQuickPick<Item<string>>({
      title, step: 1, totalSteps: 2, placeholder: vscode.l10n.t('Pick an agent to revoke its token'), matchOnDescription: true,
      items: gateway.agents.map(a => ({
        label: pickText(a.label, 100),
        description: a.servers.map(s => pickText(s, 100)).join(', '),
        detail: a.lastCall
          ? vscode.l10n.t('Last call: {0} of {1}, {2}', pickText(a.lastCall.tool, 100), pickText(a.lastCall.server, 100), new Date(a.lastCall.at).toLocaleTimeString())
          : vscode.l10n.t('No call yet'),
        value: a.id,
      })),
    });
    if (!('value' in picked)) throw InputFlowAction.cancel;
    chosen = { id: picked.value, label: picked.label };
    return async function sure(input: MultiStepInput) {
      const keep: Item<boolean> = { label: `$(close) ${vscode.l10n.t('Keep it connected')}`, value: false };
      const answer = await input.showQuickPick<Item<boolean>>({
        title: vscode.l10n.t('Revoke the token of {0}?', chosen!.label), step: 2, totalSteps: 2, activeItem: keep,
        placeholder: vscode.l10n.t('Its token is refused from now on and its sessions end.'),
        items: [keep, { label: `$(debug-disconnect) ${vscode.l10n.t('Revoke')}`, value: true }],
      });
      if (!('value' in answer)) throw InputFlowAction.cancel;
      revoke = answer.value;
    };
  });
  if (revoke && chosen) gateway.revoke(chosen.id);
}
