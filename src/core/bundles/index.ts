/** MCP bundles (.mcpb): checking, unpacking and declaring them. */
export * from './zip';
export * from './bundle';
