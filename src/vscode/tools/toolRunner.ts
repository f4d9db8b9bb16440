/**
 * The tool runner: run one MCP tool by hand, as a server author does in the MCP Inspector. Arguments
 * come from a form built from the tool's input schema (the elicitation form steps) or, for shapes a
 * form cannot hold, from a JSON editor prefilled from the schema with a "Run" code lens. The call goes
 * through the usual consent (ToolInvoker → ToolConsent); the result opens in a read-only Markdown
 * document, with the raw request/response JSON one click away (editor title action).
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { planForm, plainText, renderToolRun, schemaSkeleton, toolRunExchange, type McpHost, type ToolRunLabels } from '../../core';
import type { ToolInvoker } from '../chat/toolInvoker';
import { runFormFlow } from '../elicitation/formFlow';
import { ReadOnlySnapshots } from '../readOnlySnapshots';
import { pickText } from '../pickText';
import { showError, showInfo, showWarning, withProgress } from '../notify';

export const TOOL_RUN_SCHEME = 'mcp-tool-run';
const KEEP_EXCHANGES = 50;

/** A tool row of the Servers view, or `{ server, tool }` from a command or test. */
export interface ToolTarget { readonly server: string; readonly tool: string }

export class ToolRunner implements vscode.Disposable {
  private readonly documents = new ReadOnlySnapshots(TOOL_RUN_SCHEME);
  /** Raw exchange JSON by result document path (bounded like the snapshots). */
  private readonly exchanges = new Map<string, string>();
  /** JSON drafts we opened: untitled document URI → the tool it runs. */
  private readonly drafts = new Map<string, ToolTarget>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly lensChanged = new vscode.EventEmitter<void>();

  constructor(private readonly host: McpHost, private readonly invoker: ToolInvoker) {
    this.disposables.push(
      this.documents, this.lensChanged,
      vscode.commands.registerCommand('mcpHost.runTool', (target?: unknown) => this.runWithForm(target)),
      vscode.commands.registerCommand('mcpHost.runToolWithJson', (target?: unknown) => this.openDraft(target)),
      vscode.commands.registerCommand('mcpHost.runToolDraft', (uri?: unknown) => this.runDraft(uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri)),
      vscode.commands.registerCommand('mcpHost.showToolRunJson', (uri?: unknown) => this.showExchange(uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri)),
      vscode.languages.registerCodeLensProvider({ scheme: 'untitled' }, {
        onDidChangeCodeLenses: this.lensChanged.event,
        provideCodeLenses: doc => {
          const target = this.drafts.get(doc.uri.toString());
          if (!target) return [];
          return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: `$(play) ${vscode.l10n.t('Run {0} ({1})', target.tool, target.server)}`, command: 'mcpHost.runToolDraft', arguments: [doc.uri] })];
        },
      }),
      vscode.workspace.onDidCloseTextDocument(doc => { if (this.drafts.delete(doc.uri.toString())) this.lensChanged.fire(); }),
      // Shows the editor-title "Run" button on our drafts only.
      vscode.window.onDidChangeActiveTextEditor(e => this.syncDraftContext(e)),
    );
  }

  /** Form first; a schema a form cannot hold opens the JSON editor instead. Resolves with the result document's URI. */
  async runWithForm(target?: unknown): Promise<vscode.Uri | undefined> {
    const picked = await this.resolveTarget(target);
    if (!picked) return undefined;
    const { server, tool } = picked;
    const plan = planForm(tool.inputSchema);
    if (!plan.ok) {
      // The tool's name is the server's: no link of it in the notification.
      void showInfo(plainText(vscode.l10n.t('The arguments of "{0}" do not fit a form ({1}); edit them as JSON and run them from the editor.', tool.name, plan.reason), { singleLine: true, maxLength: 600 }));
      await this.openDraft({ server, tool: tool.name });
      return undefined;
    }
    const conn = this.host.require(server);
    const outcome = await runFormFlow({
      server: conn.ref,
      message: '',
      fields: plan.fields,
      wording: {
        title: vscode.l10n.t('Run tool {0} ({1})', label(tool.title ?? tool.name), server),
        submit: vscode.l10n.t('Run'),
        submitDescription: vscode.l10n.t('call "{0}" with these arguments', tool.name),
        placeholder: vscode.l10n.t('Review the arguments, then run the tool'),
      },
    });
    if (outcome.action !== 'accept') return undefined;
    return this.execute(server, tool, outcome.content);
  }

  /** An untitled JSON document prefilled from the input schema, with a "Run" code lens. */
  async openDraft(target?: unknown): Promise<vscode.TextEditor | undefined> {
    const picked = await this.resolveTarget(target);
    if (!picked) return undefined;
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `${JSON.stringify(schemaSkeleton(picked.tool.inputSchema), null, 2)}\n` });
    this.drafts.set(doc.uri.toString(), { server: picked.server, tool: picked.tool.name });
    this.lensChanged.fire();
    const editor = await vscode.window.showTextDocument(doc);
    this.syncDraftContext(editor);
    return editor;
  }

  private syncDraftContext(editor: vscode.TextEditor | undefined): void {
    void vscode.commands.executeCommand('setContext', 'mcpHost.toolDraft', !!editor && this.drafts.has(editor.document.uri.toString()));
  }

  async runDraft(uri: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
    const target = uri && this.drafts.get(uri.toString());
    if (!uri || !target) {
      void showWarning(vscode.l10n.t('This editor does not hold the arguments of an MCP tool. Use "Run Tool with JSON…" on a tool in the Servers view.'));
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    let args: unknown;
    try { args = JSON.parse(doc.getText()); } catch (e) {
      void showError(vscode.l10n.t('The arguments are not valid JSON: {0}', e instanceof Error ? e.message : String(e)));
      return undefined;
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      void showError(vscode.l10n.t('The arguments must be a JSON object, such as {"text": "hello"}.'));
      return undefined;
    }
    const tool = this.host.get(target.server)?.tool(target.tool);
    if (!tool) {
      void showError(vscode.l10n.t('Server "{0}" has no tool named "{1}" now.', target.server, target.tool));
      return undefined;
    }
    return this.execute(target.server, tool, args as Record<string, unknown>);
  }

  private async execute(server: string, tool: Tool, args: Record<string, unknown>): Promise<vscode.Uri> {
    const r = await withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Running {0} ({1})…', label(tool.title ?? tool.name), server), cancellable: true },
      (_progress, token) => this.invoker.invoke({ server, tool: tool.name, args, token }),
    );
    const run = { server, tool, args, ...(r.result ? { result: r.result } : { failure: r.text }) };
    const editor = await this.documents.show(`${safeName(tool.name)}-result.md`, renderToolRun(run, labels()));
    const path = editor.document.uri.path;
    this.exchanges.set(path, toolRunExchange(run));
    if (this.exchanges.size > KEEP_EXCHANGES) this.exchanges.delete(this.exchanges.keys().next().value!);
    return editor.document.uri;
  }

  private async showExchange(uri: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
    const json = uri?.scheme === TOOL_RUN_SCHEME ? this.exchanges.get(uri.path) : undefined;
    if (!json) {
      void showWarning(vscode.l10n.t('No tool run is shown in this editor.'));
      return undefined;
    }
    return (await this.documents.show('exchange.json', json)).document.uri;
  }

  private async resolveTarget(target: unknown): Promise<{ server: string; tool: Tool } | undefined> {
    // A tool row of the Servers view ({ kind: 'tool', server, name }) or { server, tool } from a command.
    const raw = target as { kind?: string; server?: unknown; tool?: unknown; name?: unknown } | undefined;
    const t = raw?.kind === 'tool' ? { server: raw.server, tool: raw.name } : raw;
    if (t && typeof t.server === 'string' && typeof t.tool === 'string') {
      const conn = this.host.get(t.server);
      if (conn && conn.state !== 'running') await conn.ready({}, 'tools/call').catch(() => undefined);
      const tool = conn?.tool(t.tool);
      if (!tool) {
        void showError(vscode.l10n.t('Server "{0}" has no tool named "{1}".', t.server, t.tool));
        return undefined;
      }
      return { server: t.server, tool };
    }
    // QuickPick items draw `$(icons)`: the server's title and description go through pickText.
    const items = this.host.tools.map(o => ({ label: pickText(o.item.title ?? o.item.name, 200), description: o.server, detail: o.item.description ? pickText(o.item.description) : undefined, server: o.server, tool: o.item }));
    if (!items.length) { void showInfo(vscode.l10n.t('No MCP tools are available.')); return undefined; }
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Run MCP Tool'), placeHolder: vscode.l10n.t('Pick a tool to run'), matchOnDescription: true });
    return picked ? { server: picked.server, tool: picked.tool } : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.exchanges.clear();
    this.drafts.clear();
  }
}

function label(s: string): string { return plainText(s, { singleLine: true, maxLength: 120 }); }

/** A tool name as a file name: the server chose it. */
function safeName(s: string): string { return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'tool'; }

function labels(): ToolRunLabels {
  return {
    server: vscode.l10n.t('Server'),
    arguments: vscode.l10n.t('Arguments'),
    result: vscode.l10n.t('Result'),
    errorResult: vscode.l10n.t('Result (the tool reported an error)'),
    failed: vscode.l10n.t('The call failed'),
    structured: vscode.l10n.t('Structured content'),
    matchesSchema: vscode.l10n.t('✓ matches the tool\'s output schema'),
    noSchema: vscode.l10n.t('The tool declares no output schema.'),
    image: vscode.l10n.t('Image'),
    audio: vscode.l10n.t('Audio'),
    resource: vscode.l10n.t('Embedded resource'),
    resourceLink: vscode.l10n.t('Resource link'),
    binary: vscode.l10n.t('binary, not shown'),
    empty: vscode.l10n.t('(no content)'),
  };
}
