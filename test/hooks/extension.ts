/**
 * The test build's activation entry (dist/extension.js of a development build, esbuild.mjs): the
 * product's entry (src/extension.ts) as it is, with the test hooks of its host bundle (test/hooks/host.ts)
 * exported as `testing` beside the API.
 */
import type * as vscode from 'vscode';
import type { McpHostApi } from '../../src/vscode/api';
import * as product from '../../src/extension';
import type { TestLoadedHost } from './host';
import type { McpHostTestHooks } from './testHooks';

export function activate(context: vscode.ExtensionContext): McpHostApi {
  const api = product.activate(context);
  // A getter, so that reading the hooks (not activation) waits for the host.
  const testing: PropertyDescriptor = { enumerable: true, get: (): Promise<McpHostTestHooks> => product.loadedHost().then(hooksOf) };
  return Object.freeze(Object.create(api, { testing }) as McpHostApi);
}

export const deactivate = product.deactivate;

function hooksOf(host: Partial<TestLoadedHost>): McpHostTestHooks {
  if (!host.testHooks) throw new Error('the host bundle beside this activation entry is not the test build\'s (test/hooks/host.ts): rebuild with `npm run build`');
  return host.testHooks;
}
