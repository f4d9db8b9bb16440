/** Status-bar item: running/total servers, highlighted when one is in error; click lists servers. */
import * as vscode from 'vscode';
import type { HostController } from './hostController';

export class ServersStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly sub: { dispose(): void };

  constructor(private readonly controller: HostController) {
    this.item.name = vscode.l10n.t('MCP Servers');
    this.item.command = 'mcpHost.showServers';
    this.sub = controller.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const servers = this.controller.host.servers;
    const problems = new Set(this.controller.problems.filter(p => p.severity === 'error').map(p => p.server)).size;
    const total = servers.length + problems + this.controller.untrusted.length;
    if (!total) { this.item.hide(); return; }
    const running = servers.filter(s => s.state === 'running').length;
    const failed = servers.filter(s => s.state === 'error').length + problems;
    this.item.text = `$(${failed ? 'warning' : 'plug'}) MCP ${running}/${total}`;
    this.item.tooltip = failed
      ? vscode.l10n.t('{0} of {1} MCP servers running, {2} with errors', running, total, failed)
      : vscode.l10n.t('{0} of {1} MCP servers running', running, total);
    this.item.backgroundColor = failed ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void { this.sub.dispose(); this.item.dispose(); }
}
