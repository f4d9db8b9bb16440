/**
 * Installing a server from outside the Add Server flow (registry, link, another extension): the
 * consent, then the Add Server flow's writer (inputs then servers, in the chosen scope), then the
 * start, reported like Add Server reports it.
 */
import * as vscode from 'vscode';
import { isValidServerName } from '../../core/onboarding';
import { launchPreview } from '../../core/registry';
import { parseServers } from '../../core/config/parse';
import { registryInstallRecord } from '../../core/policy/registryInstalls';
import { plainText } from '../../core/text';
import { uniqueId } from '../../core/onboarding/secrets';
import type { InputDefinition } from '../../core/onboarding';
import type { OnboardingContext } from '../onboarding/declareAndStart';
import { declareAndStart } from '../onboarding/declareAndStart';
import { declaredServers, type Target } from '../onboarding/settingsWriter';
import { confirmInstall } from './installConsent';
import { showError } from '../notify';

export type InstallResult =
  | { readonly status: 'installed'; readonly name: string; readonly target: Target; readonly state?: string; readonly message?: string }
  | { readonly status: 'cancelled' }
  | { readonly status: 'refused'; readonly message: string };

export interface Installable {
  readonly name: string;
  readonly declaration: Record<string, unknown>;
  readonly inputs: readonly InputDefinition[];
  readonly source: string;
  /** Runs after the consent, before anything is written (a bundle unpacks its files here). */
  readonly prepare?: () => Promise<void>;
  /** The registry entry this declaration was built from by MCP Host itself (never what a caller claims). */
  readonly registry?: { readonly registryUrl: string; readonly entry: string; readonly version?: string };
}

/** `name`, or `name-2`… when a server of that name is declared already (an install never replaces one). */
export function freeServerName(name: string): string {
  return uniqueId(name, new Set(declaredServers().keys()));
}

export async function installWithConsent(ctx: OnboardingContext, item: Installable): Promise<InstallResult> {
  if (!isValidServerName(item.name)) return { status: 'refused', message: vscode.l10n.t('"{0}" is not a valid server name.', item.name) };
  // Text that hides characters cannot be shown as it would run: refused before anything is shown.
  const hidden = launchPreview(item.declaration).hidden;
  if (hidden.length) {
    const message = vscode.l10n.t(
      'MCP server "{0}" was not installed: {1} contains invisible or control characters, so it cannot be shown as it would run.',
      plainText(item.name, { singleLine: true }), hidden.join(', '));
    void showError(message);
    return { status: 'refused', message };
  }
  const target = await confirmInstall(item);
  if (!target) return { status: 'cancelled' };
  const name = item.name;
  try { await item.prepare?.(); } catch (e) {
    const message = vscode.l10n.t('MCP server "{0}" was not installed: {1}', name, (e as Error).message);
    void showError(message);
    return { status: 'refused', message };
  }
  // Recorded before the declaration is written, so the start it triggers finds it (a registryOnly policy admits only recorded installs).
  if (item.registry && ctx.registryInstalls) {
    const decl = parseServers({ [name]: item.declaration }).servers[0];
    const record = decl && registryInstallRecord(decl, item.registry);
    if (record && typeof record !== 'string') await ctx.registryInstalls.record(name, target, record);
  }
  const settled = await declareAndStart(ctx, target, name, { servers: { [name]: item.declaration }, inputs: item.inputs, secrets: [] });
  return { status: 'installed', name, target, state: settled.state, message: settled.message };
}
