/** OAuth 2.1 for HTTP servers: the port, the SDK provider and the per-connection session. */
export * from './types';
export { AuthStorage, normalizeServerUrl, type StoredTokens, type StoredClient, type ClientKind } from './storage';
export { McpOAuthProvider } from './oauthProvider';
export { OAuthSession, type AuthStatus, type SessionInteraction } from './oauthSession';
export { HeadlessUserAgent, MemorySecretStore, type HeadlessUserAgentOptions } from './headless';
