/**
 * The host bundle (dist/host.js): builds the environment, constructs the core (and with it the MCP
 * SDK), wires the adapters into the contributions the activation entry (extension.ts) registered, and
 * starts the servers. Loaded once, after activate() returned or when something needs the host first.
 */
import * as vscode from 'vscode';
import { keepSettingsUntilChanged } from './vscode/settingsReader';
import type { EarlyOutcome, HostBundle, LateContributions, LoadedHost } from './vscode/lazy/contract';
import { catalogDir, ledgerDir, SERVERS_VIEW_ID } from './vscode/lazy/contract';
import { keepLedgerIn } from './core/connection/processLedger';
import { whenLaunchCgroupsProbed } from './core/connection/launchCgroup';
import { workspaceIdentity } from './vscode/workspaceIdentity';
import { createApi } from './vscode/apiImpl';
import { ToolActivityLog } from './vscode/chat/activityLog';
import { registerLanguageModelTools } from './vscode/chat/lmTools';
import { participantHandler } from './vscode/chat/participant';
import { KeptResults } from './vscode/chat/keptResults';
import { registerToolCommands } from './vscode/chat/toolCommands';
import { ToolInvoker } from './vscode/chat/toolInvoker';
import { ToolConsent } from './vscode/chat/toolConsent';
import { registerApprovalCommands } from './vscode/chat/approvalCommands';
import { registerCommands } from './vscode/commands';
import { createOAuth } from './vscode/auth';
import { ElicitationUi } from './vscode/elicitation/elicitationUi';
import { HostController } from './vscode/hostController';
import { DiscoveredServers } from './vscode/discovery/discoveredServers';
import { InputStore } from './vscode/inputs';
import { registerOnboarding } from './vscode/onboarding';
import { installLinkHandler, INSTALL_LINK_PATH, registerRegistry } from './vscode/registry';
import { UriRouter } from './vscode/uriRouter';
import { ServerLogs } from './vscode/logs';
import { WorkspaceRoots } from './vscode/roots';
import { createSandboxPort } from './vscode/sandbox';
import { ServersStatusBar } from './vscode/statusBar';
import { ServersView } from './vscode/views/serversView';
import { SERVER_ICONS_FOLDER, ServerIconFiles } from './vscode/views/serverIconFiles';
import { iconFilesInUse } from './vscode/views/branding';
import { promptChatCommand } from './vscode/prompts/promptChatCommand';
import { registerPromptCommands } from './vscode/prompts/promptCommands';
import { registerResources, type ResourcesFeature } from './vscode/resources';
import { SamplingFeature } from './vscode/sampling/samplingFeature';
import { DevMode } from './vscode/dev/devMode';
import { ToolRunner } from './vscode/tools/toolRunner';
import { AppsFeature } from './vscode/apps/appsFeature';
import { registerAgentCommands } from './vscode/native/agentCommands';
import { GatewayService } from './vscode/native/gatewayService';
import { NativeConsent } from './vscode/native/nativeConsent';
import { NativeServers } from './vscode/native/nativeServers';
import { offerLines } from './vscode/native/offeredIn';
import { WindowPolicy } from './vscode/policy';
import { RegistryInstallRecords } from './vscode/registry/installRecords';

/**
 * What buildHost() made: the running host for the activation entry (LoadedHost), and the parts it is
 * made of for a bundle that builds on this one (the test build's host bundle, test/hooks/host.ts).
 */
export interface BuiltHost extends LoadedHost {
  readonly controller: HostController;
  readonly serversProvider: ServersView;
  readonly serverIcons: ServerIconFiles;
  readonly resources: ResourcesFeature;
  readonly elicitation: ElicitationUi;
  readonly sampling: SamplingFeature;
  readonly apps: AppsFeature;
  readonly gateway: GatewayService;
  readonly native: NativeServers;
}

export const start: HostBundle['start'] = (context, late, activationMs, early): LoadedHost => {
  const { api, shutdown } = buildHost(context, late, activationMs, early);
  return { api, shutdown };
};

export function buildHost(context: vscode.ExtensionContext, late: LateContributions, activationMs: number, early: EarlyOutcome | undefined): BuiltHost {
  // First: its listeners must come before every other listener of this bundle (settingsReader.ts).
  context.subscriptions.push(keepSettingsUntilChanged());
  // This bundle has its own copy of the ledger module: every launch it makes is written down too.
  if (context.globalStorageUri) keepLedgerIn(ledgerDir(context.globalStorageUri.fsPath));
  const earlyProcesses = early && 'processes' in early ? early.processes : undefined;
  let controller: HostController | undefined = undefined;
  const logs = new ServerLogs();
  const hostLog = vscode.window.createOutputChannel('MCP Host', { log: true });
  // Once, at the first launch: whether a stopped server's orphans are found by their cgroup or by the process table only (SECURITY.md §38).
  if (process.platform === 'linux') whenLaunchCgroupsProbed(note => hostLog.info(note));
  const inputs = new InputStore(context.secrets, context.globalState);
  const roots = new WorkspaceRoots(message => hostLog.warn(message));
  const elicitation = new ElicitationUi({ log: name => logs.get(name) });
  // <user-data>/User/globalStorage/<extension id> → <user-data>/User: this editor's mcp.json, Cline's and Roo's storage.
  const userDir = context.globalStorageUri?.scheme === 'file' ? vscode.Uri.joinPath(context.globalStorageUri, '..', '..').fsPath : undefined;
  const discovered = new DiscoveredServers(userDir);
  // Consent first: sampling's "always allow" is one of its approval records, bound to the program.
  const consent = new ToolConsent(context, name => controller?.scopeOf(name), name => controller?.host.get(name)?.sandboxed ?? false,
    name => discovered.declarationOf(name), discovered.current());
  const sampling = new SamplingFeature(logs, inputs, consent.sampling);
  const oauth = createOAuth(context, request => inputs.resolve(request), message => hostLog.info(message));
  const policy = new WindowPolicy();
  // What registryOnly admits: the installs MCP Host made from the registry, kept in its own storage (never settings).
  const registryInstalls = new RegistryInstallRecords(context);
  controller = new HostController(logs, inputs, roots, String(context.extension.packageJSON.version ?? '0.0.0'), {
    elicitation: elicitation.handler, sampling: sampling.handler, auth: oauth.port,
    policy: () => policy.current,
    registryInstall: name => registryInstalls.lookup(name, controller?.originOf(name)),
    sandbox: createSandboxPort(context, name => controller?.scopeOf(name) === 'user', name => controller?.discovered.originOf(name)),
    earlyProcesses,
    // In the extension's own storage, never a folder a workspace controls; the scope keeps a workspace's declaration apart from the user's.
    catalogCache: context.globalStorageUri && {
      dir: catalogDir(context.globalStorageUri.fsPath),
      place: name => ({ scope: controller?.scopeOf(name) ?? 'workspace', workspace: workspaceIdentity() }),
    },
  }, discovered);
  // A changed policy applies at once: a newly refused server stops, a newly admitted one starts.
  context.subscriptions.push(discovered, policy, policy.onDidChange(() => void controller?.reload()));
  if (early && 'error' in early) hostLog.warn(`The servers were not started early (while MCP Host loaded): ${early.error}`);
  elicitation.attach(controller.host);
  context.subscriptions.push(elicitation, sampling, oauth, oauth.attach(controller.host, name => logs.show(name)));
  // In the extension's own storage, which no server writes (a sandboxed one is kept out of it).
  const c0 = controller;
  const iconFiles = new ServerIconFiles(context.globalStorageUri?.scheme === 'file' ? vscode.Uri.joinPath(context.globalStorageUri, SERVER_ICONS_FOLDER).fsPath : undefined,
    () => iconFilesInUse(c0.host.servers), message => hostLog.warn(message));
  const view = new ServersView(controller, offerLines(typeof vscode.lm.registerMcpServerDefinitionProvider === 'function'), iconFiles);
  context.subscriptions.push(
    logs, hostLog, roots, view, iconFiles,
    late.treeView(SERVERS_VIEW_ID, view),
    new ServersStatusBar(controller),
    ...registerCommands({ controller, logs, inputs }),
    ...registerOnboarding({ controller, logs, inputs }, context, name => discovered.fileOf(name)),
    ...registerRegistry({ controller, logs, inputs, registryInstalls }, context.globalStorageUri),
  );
  context.subscriptions.push(new DevMode(controller.host, logs));
  const uris = new UriRouter(oauth.userAgent);
  uris.route(INSTALL_LINK_PATH, installLinkHandler({ controller, logs, inputs, registryInstalls }));
  context.subscriptions.push(vscode.window.registerUriHandler(uris));
  const resources = registerResources(controller.host, late);
  context.subscriptions.push(resources);
  context.subscriptions.push(registerPromptCommands({ host: controller.host, logs, storage: context.globalStorageUri, roots }));
  const c = controller;
  const activity = new ToolActivityLog(() => inputs.knownValues());
  const invoker = new ToolInvoker(c.host, activity, consent, (call, server) => elicitation.callWithUrlElicitation(call, { server, what: vscode.l10n.t('the tool call') }));
  const kept = new KeptResults();
  const apps = new AppsFeature(c.host, invoker, name => logs.get(name), String(context.extension.packageJSON.version ?? '0.0.0'));
  context.subscriptions.push(
    activity,
    consent,
    kept,
    invoker,
    apps,
    ...registerApprovalCommands(consent.approvals),
    late.chatHandler(participantHandler({ host: c.host, invoker, kept, appContexts: servers => apps.modelContexts(servers), promptCommand: promptChatCommand(c.host) })),
    ...registerLanguageModelTools(c.host, invoker, consent, kept, late.registerTool.bind(late)),
    ...registerToolCommands(c.host, activity),
    new ToolRunner(c.host, invoker),
  );
  // The gateway that serves our servers to VS Code's own chat and to terminal agents; it ends with the window.
  const gateway = new GatewayService(c.host, hostLog, consent, new NativeConsent(consent, context.workspaceState), kept);
  const native = new NativeServers(c.host, () => gateway.get(), { id: 'window', label: vscode.env.appName, kind: 'window' }, name => vscode.commands.executeCommand('mcpHost.signIn', name));
  context.subscriptions.push(gateway, native, ...registerAgentCommands(c.host, gateway));
  const nativeRegistration = late.mcpServerDefinitions(native);
  if (nativeRegistration) context.subscriptions.push(nativeRegistration);
  // Each server took its early process when it started; what none took (the settings changed meanwhile) is stopped.
  void c.reload().finally(() => earlyProcesses?.release());
  const api = createApi(c.host, activity, activationMs, run => void apps.open(run));
  return {
    api,
    controller: c, serversProvider: view, serverIcons: iconFiles, resources, elicitation, sampling, apps, gateway, native,
    async shutdown() {
      const stopping = controller;
      controller = undefined;
      // Its clients go first: nothing reaches a server that is shutting down.
      gateway.dispose();
      if (stopping) await stopping.host.shutdown();
    },
  };
}
