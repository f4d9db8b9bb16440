/**
 * Sampling in VS Code: the core's SamplingService with `vscode.lm` models, QuickPick consent,
 * settings, the per-server log channels, stored input values as secrets to redact, and the
 * "MCP: Show Sampling Log" command. `handler` goes into `HostController`'s features.
 */
import * as vscode from 'vscode';
import type { SamplingHandler } from '../../core';
import { SamplingLog, SamplingService, type SamplingGrants } from '../../core/sampling';
import type { InputStore } from '../inputs';
import type { ServerLogs } from '../logs';
import { LanguageModelPort } from './languageModelPort';
import { SamplingDocuments } from './samplingDocuments';
import { SamplingPrompts } from './samplingPrompts';
import { openSamplingSettings, readSamplingSettings } from './samplingSettings';
import { showWarning } from '../notify';

export const SHOW_SAMPLING_LOG = 'mcpHost.showSamplingLog';

export class SamplingFeature implements vscode.Disposable {
  readonly service: SamplingService;
  readonly handler: SamplingHandler;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(logs: ServerLogs, inputs: InputStore, grants: SamplingGrants) {
    const log = new SamplingLog();
    const docs = new SamplingDocuments(log);
    this.service = new SamplingService({
      models: new LanguageModelPort(),
      ui: new SamplingPrompts(docs, server => logs.show(server)),
      settings: readSamplingSettings,
      grants,
      secrets: () => inputs.values(),
      logger: server => logs.get(server),
      log,
    });
    this.handler = this.service.handler;
    this.disposables.push(
      docs,
      log,
      vscode.commands.registerCommand(SHOW_SAMPLING_LOG, (server?: unknown) => docs.showLog(serverName(server))),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (['sampling', 'samplingRateLimit', 'samplingRedactSecrets'].some(k => e.affectsConfiguration(`mcpHost.${k}`))) this.reportProblems();
      }),
    );
    this.reportProblems();
  }

  /** VS Code does not validate setting values, so malformed sampling settings are reported here. */
  private reportProblems(): void {
    const { problems } = readSamplingSettings();
    if (!problems.length) return;
    const open = vscode.l10n.t('Open Settings');
    void showWarning(vscode.l10n.t('MCP sampling settings: {0} Safe defaults apply (policy "ask").', problems.join(' ')), open)
      .then(choice => { if (choice === open) void openSamplingSettings(); });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}

/** The command may be run from the palette (no argument), with a name, or from a tree item ({ name }). */
function serverName(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { name?: unknown }).name === 'string') return (arg as { name: string }).name;
  return undefined;
}
