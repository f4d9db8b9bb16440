/**
 * The activation entry's side of the contract (contract.ts): the views, the `@mcp` participant and
 * the language-model tools exist from activate() on, and whatever reaches them before the host bundle
 * loaded waits for it instead of failing. Contributed commands are proxies that load the host, step
 * aside (`retire`) and hand the call on to the host's own command of the same id.
 */
import * as vscode from 'vscode';
import { MCP_PROVIDER_ID, type LateContributions, type LoadedHost } from './contract';

export type LoadHost = () => Promise<LoadedHost>;

/** A view's data provider until (and after) the host supplies the real one: asks wait for the load. */
class LateTreeData<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private target?: vscode.TreeDataProvider<T>;
  private forwarding?: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly load: LoadHost) {}

  attach(target: vscode.TreeDataProvider<T>): void {
    this.target = target;
    this.forwarding = target.onDidChangeTreeData?.(e => this.changed.fire(e ?? undefined));
    this.changed.fire();
  }

  // Elements only ever come from the target, so it is there whenever VS Code asks about one.
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> { return this.target!.getTreeItem(element); }

  async getChildren(element?: T): Promise<T[] | undefined> {
    if (!this.target) await this.load();
    return (await this.target?.getChildren(element)) ?? undefined;
  }

  dispose(): void { this.forwarding?.dispose(); this.changed.dispose(); }
}

/**
 * The MCP server definition provider until (and after) the host supplies the real one: VS Code asks
 * right after activation, and that first answer waits for the host instead of being empty.
 */
class LateMcpServers implements vscode.McpServerDefinitionProvider, vscode.Disposable {
  private target?: vscode.McpServerDefinitionProvider;
  private forwarding?: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(private readonly load: LoadHost) {}

  attach(target: vscode.McpServerDefinitionProvider): vscode.Disposable {
    this.target = target;
    this.forwarding = target.onDidChangeMcpServerDefinitions?.(() => this.changed.fire());
    this.changed.fire();
    return new vscode.Disposable(() => {
      if (this.target !== target) return;
      this.target = undefined;
      this.forwarding?.dispose();
      this.changed.fire();
    });
  }

  async provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<vscode.McpServerDefinition[]> {
    if (!this.target) await this.load();
    return (await this.target?.provideMcpServerDefinitions(token)) ?? [];
  }

  async resolveMcpServerDefinition(server: vscode.McpServerDefinition, token: vscode.CancellationToken): Promise<vscode.McpServerDefinition | undefined> {
    if (!this.target) await this.load();
    if (!this.target) throw new Error(vscode.l10n.t('MCP Host is not running.'));
    return this.target.resolveMcpServerDefinition ? (await this.target.resolveMcpServerDefinition(server, token)) ?? undefined : server;
  }

  dispose(): void { this.forwarding?.dispose(); this.changed.dispose(); }
}

export class ActivationContributions implements LateContributions, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly views = new Map<string, { view: vscode.TreeView<unknown>; data: LateTreeData<unknown> }>();
  private readonly tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  private chat?: vscode.ChatRequestHandler;
  private commands: vscode.Disposable[] = [];
  private mcpServers?: LateMcpServers;

  constructor(context: vscode.ExtensionContext, private readonly load: LoadHost, views: Record<string, Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>>, participantId: string) {
    const contributes = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[]; languageModelTools?: { name: string }[]; mcpServerDefinitionProviders?: { id: string }[] } }).contributes;
    const starting = vscode.l10n.t('Starting MCP Host…');
    for (const [id, options] of Object.entries(views)) {
      const data = new LateTreeData<unknown>(load);
      const view = vscode.window.createTreeView(id, { ...options, treeDataProvider: data });
      view.message = starting;
      this.views.set(id, { view, data });
      this.disposables.push(view, data);
    }
    for (const { name } of contributes?.languageModelTools ?? []) {
      this.disposables.push(vscode.lm.registerTool<unknown>(name, {
        prepareInvocation: async (options, token) => (await this.tool(name)).prepareInvocation?.(options, token),
        invoke: async (options, token) => (await this.tool(name)).invoke(options, token),
      }));
    }
    const participant = vscode.chat.createChatParticipant(participantId, async (request, chatContext, stream, token) => {
      if (!this.chat) await load();
      if (!this.chat) throw new Error(vscode.l10n.t('MCP Host did not provide the @mcp participant.'));
      return this.chat(request, chatContext, stream, token);
    });
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
    this.disposables.push(participant);
    // VS Code before 1.101 has no MCP server definition providers: the three language-model tools stay its only way in.
    if (typeof vscode.lm.registerMcpServerDefinitionProvider === 'function' && contributes?.mcpServerDefinitionProviders?.some(p => p.id === MCP_PROVIDER_ID)) {
      this.mcpServers = new LateMcpServers(load);
      this.disposables.push(this.mcpServers, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, this.mcpServers));
    }
    this.commands = (contributes?.commands ?? []).map(({ command }) => vscode.commands.registerCommand(command, async (...args: unknown[]) => {
      await load();
      // load() retired this proxy before the host registered its own command under the same id.
      return vscode.commands.executeCommand(command, ...args);
    }));
  }

  /** Unregisters the command proxies: the host registers the real commands right after (same ids). */
  retire(): void {
    for (const d of this.commands) d.dispose();
    this.commands = [];
  }

  treeView<T>(id: string, provider: vscode.TreeDataProvider<T>): vscode.TreeView<T> {
    const entry = this.views.get(id);
    if (!entry) throw new Error(`No view ${id} was created at activation`);
    (entry.data as LateTreeData<T>).attach(provider);
    entry.view.message = undefined;
    return entry.view as vscode.TreeView<T>;
  }

  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable {
    this.tools.set(name, tool as vscode.LanguageModelTool<unknown>);
    return new vscode.Disposable(() => this.tools.delete(name));
  }

  chatHandler(handler: vscode.ChatRequestHandler): vscode.Disposable {
    this.chat = handler;
    return new vscode.Disposable(() => { if (this.chat === handler) this.chat = undefined; });
  }

  mcpServerDefinitions(provider: vscode.McpServerDefinitionProvider): vscode.Disposable | undefined {
    return this.mcpServers?.attach(provider);
  }

  private async tool(name: string): Promise<vscode.LanguageModelTool<unknown>> {
    if (!this.tools.has(name)) await this.load();
    const tool = this.tools.get(name);
    if (!tool) throw new Error(vscode.l10n.t('MCP Host did not provide the tool {0}.', name));
    return tool;
  }

  dispose(): void {
    this.retire();
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
