/** One LogOutputChannel per server ("MCP: name"); they satisfy the core's Logger port as they are. */
import * as vscode from 'vscode';

export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  get(server: string): vscode.LogOutputChannel {
    let ch = this.channels.get(server);
    if (!ch) {
      ch = vscode.window.createOutputChannel(`MCP: ${server}`, { log: true });
      this.channels.set(server, ch);
    }
    return ch;
  }

  show(server: string): void { this.get(server).show(true); }

  dispose(): void {
    for (const ch of this.channels.values()) ch.dispose();
    this.channels.clear();
  }
}
