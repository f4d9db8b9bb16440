/** A log of every tool execution with its arguments, outcome, duration and result. */
import * as vscode from 'vscode';
import { redact, redactThenCut, redactValue } from '../../core';

// The entries are part of the exported API (api.ts); this is where they are made.
import type { ToolActivity, ToolOutcome } from '../api';
export type { ToolActivity, ToolOutcome };

const KEEP = 500;
/**
 * What one entry keeps of a result and of its arguments: the log is for seeing what ran, and 500
 * full results (a tool can return megabytes) would sit in the shared extension host's memory.
 */
const MAX_RESULT_BYTES = 4 * 1024;
const MAX_ARGS_BYTES = 4 * 1024;

export class ToolActivityLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel(vscode.l10n.t('MCP Tool Activity'), { log: true });
  private readonly entries: ToolActivity[] = [];
  private readonly _onDidAdd = new vscode.EventEmitter<ToolActivity>();
  readonly onDidAdd = this._onDidAdd.event;

  constructor(private readonly secrets: () => readonly string[]) {}

  get recent(): readonly ToolActivity[] { return this.entries; }

  add(entry: Omit<ToolActivity, 'time'>): void {
    const secrets = this.secrets();
    const argsJson = JSON.stringify(entry.args ?? {});
    const args = redactThenCut(argsJson, secrets, MAX_ARGS_BYTES);
    const result = redactThenCut(entry.result, secrets, MAX_RESULT_BYTES);
    // Oversized arguments are kept as their cut JSON text; small ones as values, redacted like the text:
    // the entries reach every extension through the exported API (api.toolActivity).
    const e: ToolActivity = { time: new Date().toISOString(), ...entry, args: Buffer.byteLength(argsJson) > MAX_ARGS_BYTES ? args : redactValue(entry.args, secrets), result };
    this.entries.push(e);
    if (this.entries.length > KEEP) this.entries.shift();
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
