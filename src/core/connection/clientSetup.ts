/**
 * The SDK client of one connection: the capabilities we declare, handlers for the server's
 * requests (roots, sampling, elicitation) and notifications, and catalogue loading.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema, ElicitationCompleteNotificationSchema, ErrorCode, ElicitRequestSchema, ListPromptsResultSchema, ListResourcesResultSchema,
  ListResourceTemplatesResultSchema, ListRootsRequestSchema, ListToolsResultSchema, LoggingMessageNotificationSchema, McpError,
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema,
  type ClientCapabilities, type Implementation, type ServerCapabilities, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { logMcpMessage, redact, type Logger, type McpLogLevel } from '../logger';
import { UserRejectedError, type HostPorts, type ServerRef } from '../ports';
import type { CatalogItems, CatalogKind, Page, ServerCatalog } from '../catalog/serverCatalog';
import { findAuthError, SignInRequiredError } from '../auth';
import { BudgetExceededError } from '../budgets';
import { errorText } from './requestPath';
import type { ServerRoots } from './serverRoots';
import { appsClientCapability } from '../apps/appTools';

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-host', title: 'MCP Host', version: '0.1.0' };

/** What the client's handlers reach of their connection. */
export interface ClientHooks {
  readonly ports: HostPorts;
  readonly logger: Logger;
  /** Where what the server itself logs (notifications/message) goes: cut and rate-limited (core/budgets). */
  readonly serverLog: Logger;
  readonly catalog: ServerCatalog;
  /** This server's roots (workspace, user and declared); reset for each new client. */
  readonly roots: ServerRoots;
  ref(): ServerRef;
  secrets(): readonly string[];
  onResourceUpdated(uri: string): void;
  onElicitationComplete(elicitationId: string): void;
  /** A server request reached our handler (see TracingTransport.onRefusedRequest). */
  reached(requestId: string | number): void;
}

export function createHostClient(hooks: ClientHooks): Client {
  const ports = hooks.ports;
  const capabilities: ClientCapabilities = {};
  hooks.roots.reset();
  if (hooks.roots.offered) capabilities.roots = { listChanged: true };
  if (ports.sampling) capabilities.sampling = { tools: {} };
  if (ports.elicitation) capabilities.elicitation = { form: {}, url: {} };
  if (ports.apps) capabilities.extensions = { ...appsClientCapability };
  const client = new Client(ports.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities });
  const ref = () => hooks.ref();
  if (hooks.roots.offered) {
    client.setRequestHandler(ListRootsRequestSchema, async (_req, extra) => { hooks.reached(extra.requestId); return { roots: await hooks.roots.list(ref()) }; });
  }
  if (ports.sampling) {
    const sampling = ports.sampling;
    client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => {
      hooks.reached(extra.requestId);
      try { return await sampling(ref(), req.params, extra.signal); }
      catch (e) {
        if (e instanceof UserRejectedError) throw new McpError(-1, e.message);
        throw e;
      }
    });
  }
  if (ports.elicitation) {
    const elicitation = ports.elicitation;
    client.setRequestHandler(ElicitRequestSchema, (req, extra) => { hooks.reached(extra.requestId); return elicitation(ref(), req.params, extra.signal); });
  }
  const catalog = hooks.catalog;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => catalog.scheduleRefresh('tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => catalog.scheduleRefresh('prompts'));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    catalog.scheduleRefresh('resources');
    catalog.scheduleRefresh('resourceTemplates');
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => hooks.onResourceUpdated(n.params.uri));
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, n => hooks.onElicitationComplete(n.params.elicitationId));
  client.setNotificationHandler(LoggingMessageNotificationSchema, n => {
    const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
    logMcpMessage(hooks.serverLog, n.params.level as McpLogLevel, `${n.params.logger ? `[${n.params.logger}] ` : ''}${redact(data, hooks.secrets())}`);
  });
  return client;
}

/**
 * Lists the catalogs the server declares; returns the sign-in error if listing needs one (the
 * start then fails with it). `current()` is false once a newer start made this one moot.
 */
export async function loadCatalogs(catalog: ServerCatalog, caps: ServerCapabilities, logger: Logger, secrets: () => readonly string[], current: () => boolean): Promise<SignInRequiredError | undefined> {
  const kinds: CatalogKind[] = [];
  if (caps.tools) kinds.push('tools');
  if (caps.resources) kinds.push('resources', 'resourceTemplates');
  if (caps.prompts) kinds.push('prompts');
  let signIn: SignInRequiredError | undefined;
  // Tools are listed in full (calls and the model need every definition); resources and templates
  // only up to their first page: the rest loads in the background (10,000 resources, or a server
  // that never sends page 2, do not hold up its start).
  await Promise.all(kinds.map(k => new Promise<void>(listed => {
    const firstPageOnly = k === 'resources' || k === 'resourceTemplates';
    void catalog.refresh(k, firstPageOnly ? listed : undefined).catch(e => {
      const authError = findAuthError(e);
      if (authError instanceof SignInRequiredError) signIn ??= authError;
      else if (e instanceof BudgetExceededError) return; // the connection stops the server for it (stopForBudget)
      else if (current()) logger.warn(`Listing ${k} failed: ${redact(errorText(e), secrets())}`);
    }).finally(listed);
  })));
  return signIn;
}

type ListRequest = <T>(method: string, params: Record<string, unknown> | undefined, schema: Parameters<Client['request']>[1]) => Promise<T>;

/** One page of a catalogue through `send` (which works while the server is still starting). */
export function fetchCatalogPage<K extends CatalogKind>(send: ListRequest, kind: K, cursor: string | undefined): Promise<Page<CatalogItems[K]>> {
  const params = cursor === undefined ? undefined : { cursor };
  const call = <T>(method: string, schema: Parameters<Client['request']>[1]) => send<T>(method, params, schema);
  switch (kind) {
    case 'tools': return call<{ tools: Tool[]; nextCursor?: string }>('tools/list', ListToolsResultSchema).then(r => ({ items: r.tools as CatalogItems[K][], nextCursor: r.nextCursor }));
    case 'resources': return call<{ resources: CatalogItems['resources'][]; nextCursor?: string }>('resources/list', ListResourcesResultSchema).then(r => ({ items: r.resources as CatalogItems[K][], nextCursor: r.nextCursor }));
    case 'resourceTemplates': return call<{ resourceTemplates: CatalogItems['resourceTemplates'][]; nextCursor?: string }>('resources/templates/list', ListResourceTemplatesResultSchema).then(
      r => ({ items: r.resourceTemplates as CatalogItems[K][], nextCursor: r.nextCursor }),
      // Templates are optional within the resources capability: a server without them has none, which is no failure.
      e => { if ((e as { code?: unknown }).code === ErrorCode.MethodNotFound) return { items: [] }; throw e; });
    default: return call<{ prompts: CatalogItems['prompts'][]; nextCursor?: string }>('prompts/list', ListPromptsResultSchema).then(r => ({ items: r.prompts as CatalogItems[K][], nextCursor: r.nextCursor }));
  }
}
