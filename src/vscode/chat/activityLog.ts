/** A log of every tool execution with its arguments, outcome, duration and result. */
import * as vscode from 'vscode';
import { redact } from '../../core';

// The entries are part of the exported API (api.ts); this is where they are made.
import type { ToolActivity, ToolOutcome } from '../api';
export type { ToolActivity, ToolOutcome };

const KEEP = 500;

export class ToolActivityLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel(vscode.l10n.t('MCP Tool Activity'), { log: true });
  private readonly entries: ToolActivity[] = [];
  private readonly _onDidAdd = new vscode.EventEmitter<ToolActivity>();
  readonly onDidAdd = this._onDidAdd.event;

  constructor(private readonly secrets: () => readonly string[]) {}

  get recent(): readonly ToolActivity[] { return this.entries; }

  add(entry: Omit<ToolActivity, 'time'>): void {
    const e: ToolActivity = { time: new Date().toISOString(), ...entry };
    this.entries.push(e);
    if (this.entries.length > KEEP) this.entries.shift();
    const args = redact(JSON.stringify(e.args ?? {}), this.secrets());
    const result = redact(e.result.length > 2000 ? `${e.result.slice(0, 2000)}…` : e.result, this.secrets());
    const line = `${e.server}/${e.tool} ${e.outcome} in ${e.durationMs} ms${e.approvedBy ? ` (approved: ${e.approvedBy})` : ''} args=${args}\n${result}`;
    if (e.outcome === 'ok') this.channel.info(line);
    else if (e.outcome === 'failed' || e.outcome === 'error-result') this.channel.warn(line);
    else this.channel.info(line);
    this._onDidAdd.fire(e);
  }

  show(): void { this.channel.show(true); }

  /** The entries as pretty JSON, with known secret values redacted as in the channel (MCP: Export Tool Activity…). */
  toJson(): string { return redact(JSON.stringify(this.entries, null, 2), this.secrets()); }

  dispose(): void { this.channel.dispose(); this._onDidAdd.dispose(); }
}
