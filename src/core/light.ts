/**
 * `@mcp-host/core/light`: the part of the core that loads no MCP SDK — reading and converting server
 * declarations, their program identity, text cleaning, redaction and logging. A tool that only reads
 * declarations (the CLI before it runs a server, for a warm `call` through `serve`) loads this instead of
 * the index, whose host and SDK cost ≈ 200 ms to load. Everything here is also exported by the index.
 * test/unit/coreLight.test.ts checks that loading it loads no SDK.
 */
export type { ConfigProblem, InputRequest, VariableContext } from './config/types';
export { envFileContent } from './config/envFileContent';
export { LogLevel, type Logger } from './logger';
export { convertConfig, locateServers, type ConfigFormat } from './onboarding/importConfig';
export { readInputList, referencedInputs } from './onboarding/inputs';
export { parseJsonc } from './onboarding/jsonc';
export { configLocations, type SourceKind } from './onboarding/sources';
export { redact, REDACTED } from './redact';
export { plainText } from './text/plainText';
export { canonicalJson } from './tools/canonicalJson';
export { programIdentity } from './tools/programIdentity';
