/** Other hosts' configuration files, followed live (`mcpHost.discovery`). No VS Code here. */
export * from './sources';
export * from './plan';
export * from './liveDiscovery';
export { readDiscoveryFile, MAX_DISCOVERY_FILE_BYTES, type FileRead } from './readFile';
export { serversOfFile, type FileServers } from './parseFile';
export { parseToml, TomlError } from './toml';
