export type { SandboxPort, SrtSettings } from './types';
export { buildRules, rootPaths, SECRET_HOME_PATHS, type RulesInput } from './rules';
export { PLANTABLE_NAMES, plantableIn } from './plantable';
export { runtimeFolders, TOOLCHAIN_HOME_PATHS } from './reads';
export { refusedFolder } from './writable';
export { describePlant, PlantGuard, type Plant } from './plantGuard';
export { SandboxRun } from './run';
export { checkSandboxSupport, SandboxUnavailableError } from './support';
export { sandboxLaunch, wantsSandbox, type SandboxedLaunch, type SandboxRequest } from './launch';
