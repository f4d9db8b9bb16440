/** Finding and installing servers: the MCP Registry client, entry → declaration, install links. */
export * from './types';
export { readEntry, readServer, readServerList } from './read';
export * from './client';
export * from './toDeclaration';
export * from './installLink';
export * from './launchPreview';
export * from './ownVariables';
export * from './packageNames';
export * from './runtimeOptions';
