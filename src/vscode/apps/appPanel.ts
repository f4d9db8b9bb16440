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
import { appChatMessage, appDocumentFrom, appStyleVariables, DisplayModeGate, plainText, type AppDocument, type AppLog, type McpHost } from '../../core';
import type { ToolInvoker, ToolRun } from '../chat/toolInvoker';
import { appWebviewHtml } from './appHtml';
import { saveAppDownloads } from './appDownload';
import { openAppLink } from './linkConsent';
import type { AppBridgeLike as AppBridge, McpUiDisplayMode, McpUiHostContext } from './bridgeTypes';
import { WebviewTransport, type HostReport, type ViolationReport } from './webviewTransport';
import { pickText } from '../pickText';
import { readSetting } from '../settingsReader';

export const APP_VIEW_TYPE = 'mcpHost.app';

export interface AppPanelDeps {
  readonly host: McpHost;
  readonly invoker: ToolInvoker;
  readonly log: (server: string) => vscode.LogOutputChannel;
  /** The gated log of the server's apps: everything an app causes to be written goes through it. */
  readonly appLog: (server: string) => AppLog;
  readonly version: string;
}

export class AppPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private bridge?: AppBridge;
  private doc?: AppDocument;
  private run?: ToolRun;
  private initialized = false;
  private readonly displayMode = new DisplayModeGate<McpUiDisplayMode>('inline');
  private transport?: WebviewTransport;
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
    // An open app uses its server: mcpHost.idleStop does not stop it under the app.
    const hold = deps.host.get(server)?.uses.hold();
    if (hold) this.subscriptions.push(hold);
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
    const doc = appDocumentFrom(uri, await conn.readResource(uri), { localNetwork: conn.declaration.type === 'stdio' && allowLocalNetwork() });
    const log = this.deps.log(this.server);
    const label = plainText(uri, { singleLine: true, maxLength: 200 });
    if (doc.csp.refused.length) log.warn(`MCP App ${label}: not allowed in its Content-Security-Policy: ${doc.csp.refused.map(e => plainText(e, { singleLine: true, maxLength: 200 })).join(', ')}`);
    if (doc.csp.refusedLocal.length) {
      log.warn(conn.declaration.type === 'stdio'
        ? `MCP App ${label}: origins on this computer or the local network are allowed only with the user setting mcpHost.apps.allowLocalNetwork`
        : `MCP App ${label}: the app of a remote server never reaches origins on this computer or the local network`);
    }
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
    const transport = this.transport = new WebviewTransport(this.panel.webview, report => this.hostReport(report));
    transport.onerror = e => this.appError(e.message);
    transport.onTrace = line => this.log.info(`MCP App ${line}`);
    transport.onViolation = report => this.violation(report);
    await bridge.connect(transport);
    this.panel.webview.html = appWebviewHtml(doc, this.panel.title);
    this.panel.reveal(undefined, true);
  }

  /** Everything the app causes to be written: cut and rate-limited like the server's own lines. */
  private get log() { return this.deps.appLog(this.server).gated; }

  private wire(bridge: AppBridge): void {
    const log = this.log;
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
      const message = appChatMessage(content);
      if ('refused' in message) {
        this.appError(vscode.l10n.t('its message was not put into the chat input: {0}', message.refused));
        return { isError: true };
      }
      if (message.neutralised.length) {
        log.warn(`MCP App message: ${message.neutralised.length} reference(s) left as plain text (an app attaches no files, tools or participants): ${plainText(message.neutralised.join(' '), { singleLine: true, maxLength: 300 })}`);
      }
      log.info(`MCP App put a message into the chat input (${message.text.length} characters); it is sent only when the user sends it.`);
      // The user reads it and sends it (or not): an app never sends a request by itself.
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: message.text, isPartialQuery: true });
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
    bridge.onrequestdisplaymode = this.guard('onrequestdisplaymode', async ({ mode }, ctx?: unknown) => {
      const id = (ctx as { mcpReq?: { id?: unknown } } | undefined)?.mcpReq?.id;
      const decision = this.displayMode.request(mode === 'fullscreen' ? 'fullscreen' : 'inline', this.transport?.userActivation(id) ?? false);
      if (decision.change) {
        // Fullscreen: the editor area, where the app gets the space; inline: beside the chat. Either way
        // the keyboard focus stays where the user has it.
        this.panel.reveal(decision.mode === 'fullscreen' ? vscode.ViewColumn.One : vscode.ViewColumn.Beside, true);
        this.contextChanged({ displayMode: decision.mode });
      } else if (decision.refused) log.info(`MCP App asked for display mode "${mode === 'fullscreen' ? 'fullscreen' : 'inline'}": refused, ${decision.refused}`);
      return { mode: decision.mode };
    });
    bridge.onloggingmessage = ({ level, logger, data }) => this.deps.appLog(this.server).entry(level, logger, data);
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
      displayMode: this.displayMode.mode,
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

  private violation(report: ViolationReport): void {
    const directive = plainText(String(report.directive ?? ''), { singleLine: true, maxLength: 60 });
    const blocked = plainText(String(report.blocked ?? ''), { singleLine: true, maxLength: 300 });
    this.log.warn(`MCP App ${plainText(this.doc?.uri ?? '', { singleLine: true, maxLength: 200 })}: its Content-Security-Policy refused ${directive || 'a load'}${blocked ? ` of ${blocked}` : ''} (allowed are only what MCP Host allows every app and the origins its _meta.ui.csp declares)`);
  }

  private appError(message: string): void {
    this.log.error(`MCP App: ${message}`);
    // The status bar renders `$(icon)`: the name and the message (the app's and server's words) show it literally.
    void vscode.window.setStatusBarMessage(vscode.l10n.t('$(warning) The app of MCP server "{0}" failed: {1}', pickText(this.server, 100), pickText(message, 300)), 10_000);
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    void this.bridge?.close().catch(() => undefined);
    this.bridge = undefined;
    this.panel.dispose();
  }
}

/** `mcpHost.apps.allowLocalNetwork`, from the user's settings only: a workspace cannot widen what apps reach. */
function allowLocalNetwork(): boolean {
  return readSetting('apps.allowLocalNetwork') === true;
}

function themeOf(): 'light' | 'dark' {
  const k = vscode.window.activeColorTheme.kind;
  return k === vscode.ColorThemeKind.Light || k === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark';
}
