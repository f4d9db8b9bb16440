export type { SandboxPort, SrtSettings } from './types';
export { buildRules, rootPaths, SECRET_HOME_PATHS, type RulesInput } from './rules';
export { checkSandboxSupport, SandboxUnavailableError } from './support';
export { sandboxLaunch, wantsSandbox, type SandboxedLaunch, type SandboxRequest } from './launch';
