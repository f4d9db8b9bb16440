/** Public surface of the embeddable core: everything an embedder (VS Code or a Node script) needs. */
export * from './events';
export * from './logger';
export * from './ports';
export * from './config/types';
export { parseServers, declarationKey } from './config/parse';
export { resolveDeclaration } from './config/resolve';
export * from './config/inputBindings';
export * from './config/inputVault';
export { McpHost, type HostOptions, type ApplyResult, type CatalogChange, type Owned } from './host';
export { ServerConnection, type ServerState, type StateChange, type CallOptions, type ConnectionOptions, type ToolCallOptions } from './connection/serverConnection';
export { ServerError } from './connection/errors';
export { defaultRestartOptions, type RestartOptions } from './connection/restartPolicy';
export type { CatalogKind } from './catalog/serverCatalog';
export * from './elicitation';
export * from './auth';
export * from './tools';
