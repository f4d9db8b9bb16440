/** Driving VS Code's built-in MCP host for MCP Host's native servers (its ids and tool names, as its sources make them). */
import * as vscode from 'vscode';
import { waitFor } from './helpers';

/** VS Code's id of a provider's server: the extension's id (lower case), `/`, the definition's label. */
export const vscodeServerId = (label: string) => `mcp-host.mcp-host/${label}`;

/** VS Code names an MCP tool `mcp_<server name, lower case, at most 13 characters>_<tool>` (a digit after the name when taken). */
export const vscodeToolName = (server: string, tool: string) => new RegExp(`^mcp_${server.toLowerCase().slice(0, 13)}\\d*_${tool}$`);

export const lmText = (r: vscode.LanguageModelToolResult) => r.content.map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

/** Has VS Code's built-in host start the provider's server (what its MCP view's Start does) and returns the tool's name in vscode.lm.tools. */
export async function startInVsCode(server: string, tool: string): Promise<string> {
  return waitFor(async () => {
    await vscode.commands.executeCommand('workbench.mcp.startServer', vscodeServerId(server), { waitForLiveTools: true });
    return vscode.lm.tools.find(t => vscodeToolName(server, tool).test(t.name))?.name;
  }, 60_000, `VS Code's built-in MCP host to list ${tool} of ${server}`);
}
