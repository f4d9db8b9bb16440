/**
 * Registry browser, `mcpHost.installServer` (for other extensions) and install links
 * (`vscode://mcp-host.mcp-host/install?…`): every path ends in the same install consent.
 */
import * as vscode from 'vscode';
import { ownInputs, parseInstallLink, readInstallRequest, RegistryClient, type ParsedInstallRequest } from '../../core/registry';
import type { OnboardingContext } from '../onboarding/declareAndStart';
import { declaredInputs } from '../onboarding/settingsWriter';
import { pickText } from '../pickText';
import { browseRegistry, installEntry } from './browser';
import { registerBundles } from './bundles';
import { freeServerName, installWithConsent, type InstallResult } from './install';
import { registryUrl } from './settings';
import { showError } from '../notify';

export const INSTALL_LINK_PATH = '/install';

export async function installRequested(ctx: OnboardingContext, parsed: ParsedInstallRequest, source: string): Promise<InstallResult> {
  if (!parsed.request) {
    const message = vscode.l10n.t('The request to install an MCP server was refused: {0}', pickText(parsed.error));
    void showError(message);
    return { status: 'refused', message };
  }
  const r = parsed.request;
  if (r.kind === 'registry') {
    try {
      const client = new RegistryClient(registryUrl(ctx.controller.policy));
      return await installEntry(ctx, client, await client.server(r.registryName, r.version));
    } catch (e) {
      const message = (e as Error).message;
      void showError(message);
      return { status: 'refused', message };
    }
  }
  const name = freeServerName(r.name);
  const taken = declaredInputs().map(i => (i as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  const own = ownInputs(name, r.declaration, r.inputs, taken);
  if (own.error) return installRequested(ctx, { error: own.error }, source);
  return installWithConsent(ctx, { name, declaration: own.declaration, inputs: own.inputs, source });
}

export function registerRegistry(ctx: OnboardingContext, storage: vscode.Uri): vscode.Disposable[] {
  return [
    ...registerBundles(ctx, storage),
    vscode.commands.registerCommand('mcpHost.browseRegistry', () => browseRegistry(ctx)),
    // VS Code does not tell a command who ran it (any extension, a command: link, a keybinding), and an id
    // the caller passes would be its own claim: the consent says so rather than name anyone.
    vscode.commands.registerCommand('mcpHost.installServer', (arg: unknown) => installRequested(ctx, readInstallRequest(arg), vscode.l10n.t('a command that another extension or a command link ran (VS Code does not tell MCP Host which one)'))),
  ];
}

/** The install link handler for the extension's URI router. */
export function installLinkHandler(ctx: OnboardingContext): (uri: vscode.Uri) => Promise<InstallResult> {
  // Nor does a URI handler learn who opened the link (a web page, another program, another extension).
  return uri => installRequested(ctx, parseInstallLink(uri.query), vscode.l10n.t('an install link (VS Code does not tell MCP Host which page, program or extension opened it)'));
}
