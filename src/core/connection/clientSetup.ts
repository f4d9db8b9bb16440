/**
 * The SDK client of one connection: the capabilities we declare, handlers for the server's
 * requests (roots, sampling, elicitation) and notifications, and catalogue loading.
 */
import { Client } from '@modelcontextprotocol/client';
import {
  ProtocolError, ProtocolErrorCode, specTypeSchemas,
  type ClientCapabilities, type CreateMessageRequestParams, type ElicitRequestFormParams, type ElicitRequestParams, type ElicitRequestURLParams,
  type Implementation, type ServerCapabilities, type Tool, type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { redact, type Logger, type McpLogLevel } from '../logger';
import { plainText } from '../text/plainText';
import { UserRejectedError, type HostPorts, type ServerRef } from '../ports';
import type { CatalogItems, CatalogKind, Page, ServerCatalog } from '../catalog/serverCatalog';
import { findAuthError, SignInRequiredError } from '../auth';
import { BudgetExceededError, type LogGate } from '../budgets';
import type { ResultSchema } from './requestPath';
import { errorText } from './errors';
import type { ServerRoots } from './serverRoots';
import type { ResponseCache } from './responseCache';
import { appsClientCapability } from '../apps/appTools';
import { invalidHeaderAnnotation } from '../catalog/headerAnnotations';
import { TASKS_EXTENSION } from './extensionTasks';

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-host', title: 'MCP Host', version: '0.1.0' };

/** What the client's handlers reach of their connection. */
export interface ClientHooks {
  readonly ports: HostPorts;
  readonly logger: Logger;
  /** Where what the server itself logs (notifications/message) goes: cleaned, cut and rate-limited (core/budgets). */
  readonly serverLog: LogGate;
  readonly catalog: ServerCatalog;
  /** Change notifications make its entries stale (spec: a notification "invalidates the cached response"). */
  readonly cache: ResponseCache;
  /** This server's roots (workspace, user and declared); reset for each new client. */
  readonly roots: ServerRoots;
  ref(): ServerRef;
  secrets(): readonly string[];
  onResourceUpdated(uri: string): void;
  onElicitationComplete(elicitationId: string): void;
  /** A server request reached our handler (see TracingTransport.onRefusedRequest). */
  reached(requestId: string | number): void;
  /** How this client picks the protocol era (see era.ts). */
  readonly versionNegotiation: VersionNegotiationOptions;
}

export function createHostClient(hooks: ClientHooks): Client {
  const ports = hooks.ports;
  const capabilities: ClientCapabilities = {};
  hooks.roots.reset();
  if (hooks.roots.offered) capabilities.roots = { listChanged: true };
  if (ports.sampling) capabilities.sampling = { tools: {} };
  if (ports.elicitation) capabilities.elicitation = { form: {}, url: {} };
  // Tasks (2026-07-28 extension): a server may answer any tool call with a task, which callTool follows.
  capabilities.extensions = { ...(ports.apps ? appsClientCapability : {}), [TASKS_EXTENSION]: {} };
  const client = new Client(ports.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities, versionNegotiation: hooks.versionNegotiation });
  const answer = inputAnswerer(hooks);
  if (hooks.roots.offered) {
    client.setRequestHandler('roots/list', async (_req, ctx) => { hooks.reached(ctx.mcpReq.id); return answer.roots(); });
  }
  if (ports.sampling) {
    client.setRequestHandler('sampling/createMessage', async (req, ctx) => {
      hooks.reached(ctx.mcpReq.id);
      try { return await answer.sampling(req.params, ctx.mcpReq.signal); }
      catch (e) {
        if (e instanceof UserRejectedError) throw new ProtocolError(-1, e.message);
        throw e;
      }
    });
  }
  if (ports.elicitation) {
    client.setRequestHandler('elicitation/create', (req, ctx) => { hooks.reached(ctx.mcpReq.id); return answer.elicitation(req.params, ctx.mcpReq.signal); });
  }
  const { catalog, cache } = hooks;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    cache.invalidate('tools/list');
    catalog.scheduleRefresh('tools');
  });
  client.setNotificationHandler('notifications/prompts/list_changed', () => {
    cache.invalidate('prompts/list');
    catalog.scheduleRefresh('prompts');
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    cache.invalidate('resources/list');
    cache.invalidate('resources/templates/list');
    catalog.scheduleRefresh('resources');
    catalog.scheduleRefresh('resourceTemplates');
  });
  client.setNotificationHandler('notifications/resources/updated', n => {
    cache.invalidate('resources/read', n.params.uri);
    hooks.onResourceUpdated(n.params.uri);
  });
  client.setNotificationHandler('notifications/elicitation/complete', n => hooks.onElicitationComplete(n.params.elicitationId));
  client.setNotificationHandler('notifications/message', n => {
    const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
    hooks.serverLog.entry(n.params.level as McpLogLevel, serverLogTag(n.params.logger), redact(data ?? '', hooks.secrets()), true);
  });
  return client;
}

/**
 * What starts each line of a server's own log entry: the logger it names, else `[server]`. Every line
 * of an entry starts with `[`, which the host's own lines never do, so none reads as the host's.
 */
export function serverLogTag(logger: unknown): string {
  const name = typeof logger === 'string' ? plainText(logger, { singleLine: true, maxLength: 60 }) : '';
  return `[${name || 'server'}] `;
}

type InputHooks = Pick<ClientHooks, 'ports' | 'roots' | 'ref'>;

/**
 * The host's answers to a server's requests for input, however they arrive: as server→client
 * requests (2025-11-25), `input_required` rounds (the SDK calls the handlers above) or the input
 * requests of a task (2026-07-28 tasks extension). One path, so the user sees one UI for each.
 */
export function inputAnswerer(hooks: InputHooks) {
  const { ports } = hooks;
  return {
    roots: async () => ({ roots: await hooks.roots.list(hooks.ref()) }),
    sampling: (params: CreateMessageRequestParams, signal: AbortSignal) => {
      if (!ports.sampling) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'sampling is not offered');
      return ports.sampling(hooks.ref(), params, signal);
    },
    elicitation: (params: ElicitRequestParams, signal: AbortSignal) => {
      if (!ports.elicitation) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'elicitation is not offered');
      return ports.elicitation(hooks.ref(), params as ElicitRequestFormParams | ElicitRequestURLParams, signal);
    },
  };
}

/**
 * Answers one input request of a task (`inputRequests` of the tasks extension), after checking its
 * parameters as the SDK checks those of a server request. URL elicitations of 2026-07-28 carry no
 * `elicitationId` (that era has no completion notification).
 */
export async function answerTaskInput(hooks: InputHooks, method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  const answer = inputAnswerer(hooks);
  const sig = signal ?? new AbortController().signal;
  const check = (schema: ResultSchema, value: unknown) => {
    const r = schema['~standard'].validate(value);
    if ('then' in r || r.issues) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid ${method} input request: ${'then' in r ? 'async schema' : r.issues.map(i => i.message).join('; ')}`);
  };
  switch (method) {
    case 'roots/list':
      if (!hooks.roots.offered) break;
      return answer.roots();
    case 'sampling/createMessage':
      if (!hooks.ports.sampling) break;
      check(specTypeSchemas.CreateMessageRequestParams, params);
      return await answer.sampling(params as CreateMessageRequestParams, sig) as Record<string, unknown>;
    case 'elicitation/create':
      if (!hooks.ports.elicitation) break;
      if (params.mode === 'url') check(specTypeSchemas.ElicitRequestURLParams, { elicitationId: '', ...params });
      else check(specTypeSchemas.ElicitRequestFormParams, params);
      return await answer.elicitation(params as ElicitRequestParams, sig) as Record<string, unknown>;
  }
  throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `a task asked for ${JSON.stringify(method).slice(0, 80)}, which this host does not offer`);
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

type ListRequest = <T>(method: string, params: Record<string, unknown> | undefined, schema: ResultSchema) => Promise<T>;

/** One page of a catalogue through `send` (which works while the server is still starting). */
export function fetchCatalogPage<K extends CatalogKind>(send: ListRequest, kind: K, cursor: string | undefined, onRejectedTool?: (name: string, why: string) => void): Promise<Page<CatalogItems[K]>> {
  const params = cursor === undefined ? undefined : { cursor };
  const call = <T>(method: string, schema: ResultSchema) => send<T>(method, params, schema);
  switch (kind) {
    case 'tools': return call<{ tools: Tool[]; nextCursor?: string }>('tools/list', specTypeSchemas.ListToolsResult).then(r => ({
      items: r.tools.filter(t => {
        const problem = invalidHeaderAnnotation(t);
        if (problem) onRejectedTool?.(t.name, problem);
        return !problem;
      }) as CatalogItems[K][],
      nextCursor: r.nextCursor,
    }));
    case 'resources': return call<{ resources: CatalogItems['resources'][]; nextCursor?: string }>('resources/list', specTypeSchemas.ListResourcesResult).then(r => ({ items: r.resources as CatalogItems[K][], nextCursor: r.nextCursor }));
    case 'resourceTemplates': return call<{ resourceTemplates: CatalogItems['resourceTemplates'][]; nextCursor?: string }>('resources/templates/list', specTypeSchemas.ListResourceTemplatesResult).then(
      r => ({ items: r.resourceTemplates as CatalogItems[K][], nextCursor: r.nextCursor }),
      // Templates are optional within the resources capability: a server without them has none, which is no failure.
      e => { if ((e as { code?: unknown }).code === ProtocolErrorCode.MethodNotFound) return { items: [] }; throw e; });
    default: return call<{ prompts: CatalogItems['prompts'][]; nextCursor?: string }>('prompts/list', specTypeSchemas.ListPromptsResult).then(r => ({ items: r.prompts as CatalogItems[K][], nextCursor: r.nextCursor }));
  }
}
