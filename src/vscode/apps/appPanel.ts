/**
 * One MCP App webview per server (so every server's app has its own webview origin), driven by the
 * official host side, `AppBridge` of @modelcontextprotocol/ext-apps. What the app may do goes through
 * the host's own rules: `tools/call` only to its own server's tools visible to apps, through the same
 * consent as a model (ToolInvoker); `ui/open-link` through the safe-URL opener with a confirmation;
 * `ui/message` only fills the chat input; `ui/download-file` goes through a save dialog (one at a
 * time); `ui/update-model-context` is kept for the next @mcp request; anything else is refused and logged.
 */
import * as vscode from 'vscode';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import { appDocumentFrom, appStyleVariables, plainText, type AppDocument, type McpHost } from '../../core';
import type { ToolInvoker, ToolRun } from '../chat/toolInvoker';
import { appWebviewHtml } from './appHtml';
import { saveAppDownloads } from './appDownload';
import { openAppLink } from './linkConsent';
import type { AppBridgeLike as AppBridge, McpUiDisplayMode, McpUiHostContext } from './bridgeTypes';
import { WebviewTransport, type HostReport } from './webviewTransport';

export const APP_VIEW_TYPE = 'mcpHost.app';
/** Longest text an app may put into the chat input. */
const MAX_MESSAGE_CHARS = 20_000;

export interface AppPanelDeps {
  readonly host: McpHost;
  readonly invoker: ToolInvoker;
  readonly log: (server: string) => vscode.LogOutputChannel;
  readonly version: string;
}

export class AppPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private bridge?: AppBridge;
  private doc?: AppDocument;
  private run?: ToolRun;
  private initialized = false;
  private displayMode: McpUiDisplayMode = 'inline';
  private styles: Record<string, string> = {};
  private size?: { width: number; height: number };
  private downloading = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** What the app last asked to add to the model's context (`ui/update-model-context`). */
  modelContext?: { content?: ContentBlock[]; structuredContent?: Record<string, unknown> };

  constructor(readonly server: string, private readonly deps: AppPanelDeps, onDispose: () => void) {
    this.panel = vscode.window.createWebviewPanel(APP_VIEW_TYPE, server, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableForms: true,
      // The document is self-contained; nothing of the extension or the workspace is served to it.
      localResourceRoots: [],
      retainContextWhenHidden: true,
    });
    this.subscriptions.push(
      this.panel.onDidDispose(() => { this.dispose(); onDispose(); }),
      vscode.window.onDidChangeActiveColorTheme(() => this.contextChanged({ theme: themeOf() })),
    );
  }

  /** The document shown now (its policy is what the webview enforces). */
  get document(): AppDocument | undefined { return this.doc; }
  get html(): string { return this.panel.webview.html; }
  get isInitialized(): boolean { return this.initialized; }

  /** Shows the app of `run`'s tool: loads `uri` when it is not the app shown now, else sends the new input and result. */
  async show(run: ToolRun, uri: string): Promise<void> {
    this.run = run;
    this.panel.title = vscode.l10n.t('{0} ({1})', plainText(run.tool.title ?? run.tool.name, { singleLine: true, maxLength: 60 }), this.server);
    if (this.doc?.uri === uri && this.bridge) {
      this.panel.reveal(undefined, true);
      if (this.initialized) await this.sendRun();
      return;
    }
    const conn = this.deps.host.require(this.server);
    const doc = appDocumentFrom(uri, await conn.readResource(uri));
    if (doc.csp.refused.length) this.deps.log(this.server).warn(`MCP App ${uri}: not allowed in its Content-Security-Policy: ${doc.csp.refused.join(', ')}`);
    await this.load(doc);
  }

  private async load(doc: AppDocument): Promise<void> {
    await this.bridge?.close().catch(() => undefined);
    this.initialized = false;
    this.doc = doc;
    const { AppBridge: AppBridgeClass } = await import('@modelcontextprotocol/ext-apps/app-bridge');
    const bridge: AppBridge = new AppBridgeClass(null, { name: 'mcp-host-vscode', title: 'MCP Host for VS Code', version: this.deps.version }, {
      openLinks: {},
      downloadFile: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {} },
      sandbox: { csp: doc.csp.allowed },
    // Our McpUiHostContext (bridgeTypes.ts) is the subset we send; the package types it with its own declarations.
    }, { hostContext: this.hostContext() as never }) as unknown as AppBridge;
    this.bridge = bridge;
    this.wire(bridge);
    const transport = new WebviewTransport(this.panel.webview, report => this.hostReport(report));
    transport.onerror = e => this.appError(e.message);
    transport.onTrace = line => this.deps.log(this.server).info(`MCP App ${line}`);
    await bridge.connect(transport);
    this.panel.webview.html = appWebviewHtml(doc, this.panel.title);
    this.panel.reveal(undefined, true);
  }

  private wire(bridge: AppBridge): void {
    const log = this.deps.log(this.server);
    bridge.oninitialized = () => { this.initialized = true; void this.sendRun(); };
    bridge.oncalltool = this.guard('oncalltool', async params => this.callTool(params.name, params.arguments ?? {}));
    bridge.onreadresource = this.guard('onreadresource', async params => this.deps.host.require(this.server).readResource(params.uri));
    bridge.onlistresources = this.guard('onlistresources', async () => ({ resources: this.deps.host.resources.filter(r => r.server === this.server).map(r => r.item) }));
    bridge.onopenlink = this.guard('onopenlink', async ({ url }) => {
      const outcome = await openAppLink(this.server, url);
      log.info(`MCP App asked to open ${plainText(String(url), { singleLine: true, maxLength: 300 })}: ${outcome}`);
      return outcome === 'opened' ? {} : { isError: true };
    });
    bridge.onmessage = this.guard('onmessage', async ({ content }) => {
      const text = plainText(content.flatMap(c => c.type === 'text' ? [c.text] : []).join('\n\n'), { maxLength: MAX_MESSAGE_CHARS });
      log.info(`MCP App put a message into the chat input (${text.length} characters); it is sent only when the user sends it.`);
      if (!text) return { isError: true };
      // The user reads it and sends it (or not): an app never sends a request by itself.
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
      return {};
    });
    bridge.ondownloadfile = this.guard('ondownloadfile', async ({ contents }) => {
      // One save dialog at a time: an app cannot stack dialogs faster than the user answers them.
      if (this.downloading) return { isError: true };
      this.downloading = true;
      try {
        return await saveAppDownloads(this.server, this.deps.host.require(this.server), contents, log) ? {} : { isError: true };
      } finally { this.downloading = false; }
    });
    bridge.onupdatemodelcontext = this.guard('onupdatemodelcontext', async params => { this.modelContext = params; return {}; });
    bridge.onrequestdisplaymode = this.guard('onrequestdisplaymode', async ({ mode }) => {
      const next: McpUiDisplayMode = mode === 'fullscreen' ? 'fullscreen' : 'inline';
      if (next !== this.displayMode) {
        this.displayMode = next;
        // Fullscreen: the editor area, where the app gets the space; inline: beside the chat.
        this.panel.reveal(next === 'fullscreen' ? vscode.ViewColumn.One : vscode.ViewColumn.Beside);
        this.contextChanged({ displayMode: next });
      }
      return { mode: next };
    });
    bridge.onloggingmessage = ({ level, data }) => log.info(`MCP App [${level}]: ${typeof data === 'string' ? data : JSON.stringify(data)}`);
    bridge.onrequestteardown = () => this.panel.dispose();
    bridge.fallbackRequestHandler = async request => {
      this.appError(vscode.l10n.t('the app asked for "{0}", which MCP Host does not offer to apps', plainText(request.method, { singleLine: true, maxLength: 100 })));
      throw new Error(`Method not supported by this host: ${request.method}`);
    };
    bridge.onerror = e => this.appError(e.message);
  }

  /** A handler whose failure is logged and shown before the app gets it as an error. */
  private guard<P extends unknown[], R>(name: string, handler: (...args: P) => Promise<R>): (...args: P) => Promise<R> {
    return async (...args) => {
      try { return await handler(...args); } catch (e) {
        this.appError(`${name}: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
    };
  }

  private async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    // Only this server's tools: the invoker looks the name up on this server and nowhere else.
    const r = await this.deps.invoker.invoke({ server: this.server, tool: name, args, caller: 'app' });
    return r.result ?? { content: [{ type: 'text', text: r.text }], isError: true };
  }

  private async sendRun(): Promise<void> {
    const run = this.run;
    const bridge = this.bridge;
    if (!run || !bridge) return;
    this.contextChanged({ toolInfo: { tool: run.tool } });
    await bridge.sendToolInput({ arguments: run.args });
    await bridge.sendToolResult(run.result);
  }

  private hostReport(report: HostReport): void {
    const styles = appStyleVariables(report.variables ?? {});
    const change: McpUiHostContext = {};
    if (JSON.stringify(styles) !== JSON.stringify(this.styles)) { this.styles = styles; change.styles = { variables: styles }; change.theme = themeOf(); }
    const w = Number(report.width), h = Number(report.height);
    if (Number.isFinite(w) && Number.isFinite(h) && (w !== this.size?.width || h !== this.size?.height)) {
      this.size = { width: w, height: h };
      change.containerDimensions = { width: w, maxHeight: h };
    }
    if (Object.keys(change).length) this.contextChanged(change);
  }

  private hostContext(): McpUiHostContext {
    return {
      theme: themeOf(),
      styles: { variables: this.styles },
      displayMode: this.displayMode,
      availableDisplayModes: ['inline', 'fullscreen'],
      locale: vscode.env.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: 'desktop',
      ...(this.size ? { containerDimensions: { width: this.size.width, maxHeight: this.size.height } } : {}),
      ...(this.run ? { toolInfo: { tool: this.run.tool } } : {}),
    };
  }

  private contextChanged(change: McpUiHostContext): void {
    const bridge = this.bridge;
    if (!bridge) return;
    bridge.setHostContext({ ...this.hostContext(), ...change });
  }

  private appError(message: string): void {
    this.deps.log(this.server).error(`MCP App: ${message}`);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('$(warning) The app of MCP server "{0}" failed: {1}', this.server, message), 10_000);
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    void this.bridge?.close().catch(() => undefined);
    this.bridge = undefined;
    this.panel.dispose();
  }
}

function themeOf(): 'light' | 'dark' {
  const k = vscode.window.activeColorTheme.kind;
  return k === vscode.ColorThemeKind.Light || k === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark';
}
