/**
 * activate/deactivate only: build the environment, construct the core, wire the adapters.
 * Servers start in the background so activation stays fast.
 */
import * as vscode from 'vscode';
import type { McpHostApi } from './vscode/api';
import { createApi } from './vscode/apiImpl';
import { ToolActivityLog } from './vscode/chat/activityLog';
import { registerLanguageModelTools } from './vscode/chat/lmTools';
import { registerParticipant } from './vscode/chat/participant';
import { KeptResults } from './vscode/chat/keptResults';
import { registerToolCommands } from './vscode/chat/toolCommands';
import { ToolInvoker } from './vscode/chat/toolInvoker';
import { ToolConsent } from './vscode/chat/toolConsent';
import { registerApprovalCommands } from './vscode/chat/approvalCommands';
import { registerCommands } from './vscode/commands';
import { createOAuth } from './vscode/auth';
import { ElicitationUi } from './vscode/elicitation/elicitationUi';
import { HostController } from './vscode/hostController';
import { InputStore } from './vscode/inputs';
import { registerOnboarding } from './vscode/onboarding';
import { ServerLogs } from './vscode/logs';
import { WorkspaceRoots } from './vscode/roots';
import { createSandboxPort } from './vscode/sandbox';
import { ServersStatusBar } from './vscode/statusBar';
import { ServersView } from './vscode/views/serversView';
import { promptChatCommand } from './vscode/prompts/promptChatCommand';
import { registerPromptCommands } from './vscode/prompts/promptCommands';
import { registerResources } from './vscode/resources';
import { SamplingFeature } from './vscode/sampling/samplingFeature';
import { createTestHooks } from './vscode/testing/testHooks';
import { AppsFeature } from './vscode/apps/appsFeature';

// The bundle's first statement (esbuild banner) sets this, so activationMs includes evaluating the bundle;
// unbundled (tsc output) it falls back to this module's load.
declare const __mcpHostLoadStart: number | undefined;
const loadStart = typeof __mcpHostLoadStart === 'number' ? __mcpHostLoadStart : performance.now();

let controller: HostController | undefined;

export function activate(context: vscode.ExtensionContext): McpHostApi {
  const logs = new ServerLogs();
  const hostLog = vscode.window.createOutputChannel('MCP Host', { log: true });
  const inputs = new InputStore(context.secrets, context.globalState);
  const roots = new WorkspaceRoots(message => hostLog.warn(message));
  const elicitation = new ElicitationUi({ log: name => logs.get(name) });
  const sampling = new SamplingFeature(logs, inputs);
  const oauth = createOAuth(context, request => inputs.resolve(request), message => hostLog.info(message));
  controller = new HostController(logs, inputs, roots, String(context.extension.packageJSON.version ?? '0.0.0'), {
    elicitation: elicitation.handler, sampling: sampling.handler, auth: oauth.port,
    sandbox: createSandboxPort(context, name => controller?.scopeOf(name) === 'user'),
  });
  elicitation.attach(controller.host);
  context.subscriptions.push(elicitation, sampling, oauth, oauth.attach(controller.host, name => logs.show(name)));
  const view = new ServersView(controller);
  context.subscriptions.push(
    logs, hostLog, roots, view,
    vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: view, showCollapseAll: false }),
    new ServersStatusBar(controller),
    ...registerCommands({ controller, logs, inputs }),
    ...registerOnboarding({ controller, logs, inputs }, context),
  );
  const resources = registerResources(controller.host);
  context.subscriptions.push(resources);
  context.subscriptions.push(registerPromptCommands({ host: controller.host, logs, storage: context.globalStorageUri, roots }));
  const c = controller;
  const activity = new ToolActivityLog(() => inputs.knownValues());
  const consent = new ToolConsent(context, name => c.scopeOf(name), name => c.host.get(name)?.sandboxed ?? false);
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
    registerParticipant(context, { host: c.host, invoker, kept, appContexts: servers => apps.modelContexts(servers), promptCommand: promptChatCommand(c.host) }),
    ...registerLanguageModelTools(c.host, invoker, consent, kept),
    ...registerToolCommands(c.host, activity),
  );
  void c.reload();
  const api = createApi(c.host, activity, performance.now() - loadStart, run => void apps.open(run));
  // Development bundles only (esbuild.mjs): the .vsix exports the façade and nothing else.
  if (typeof MCP_HOST_TEST_BUILD !== 'undefined' && MCP_HOST_TEST_BUILD) {
    const testing = createTestHooks({ host: c.host, logUri: context.logUri.toString(), serversView: view, resourcesView: resources.view, reload: () => c.reload(), elicitation, sampling, apps });
    return Object.freeze(Object.assign(Object.create(api) as McpHostApi, { testing }));
  }
  return api;
}

/** Stops every server and waits for their process trees to exit (VS Code awaits this promise). */
export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  if (c) await c.host.shutdown();
}
