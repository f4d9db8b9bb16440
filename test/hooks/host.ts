/**
 * The test build's host bundle (dist/host.js of a development build, esbuild.mjs): the product's host
 * (src/host.ts) as it is, plus the test hooks made from its parts, which the test build's activation
 * entry (extension.ts here) exports as `testing`. The QuickInput probe is installed here, in the bundle
 * whose module instance the hooks hand out, before the product can show any input: the activation
 * entry's commands, views and tools wait for this bundle's start.
 */
import type { HostBundle, LoadedHost } from '../../src/vscode/lazy/contract';
import { buildHost } from '../../src/host';
import { installQuickInputProbe } from './quickInputProbe';
import { createTestHooks, type McpHostTestHooks } from './testHooks';

// The bundle's first statement (esbuild banner, esbuild.mjs); unbundled (tsc output) there is none.
declare const __mcpHostLoadStart: number | undefined;
const hostLoadStart = typeof __mcpHostLoadStart === 'number' ? __mcpHostLoadStart : undefined;

export interface TestLoadedHost extends LoadedHost {
  readonly testHooks: McpHostTestHooks;
}

export const start: HostBundle['start'] = (context, late, activationMs, early): TestLoadedHost => {
  installQuickInputProbe();
  const built = buildHost(context, late, activationMs, early);
  const startup = { hostLoadStart, early: early && 'processes' in early ? early.processes.started : undefined };
  return { api: built.api, shutdown: () => built.shutdown(), testHooks: createTestHooks(built, context.logUri, startup) };
};
