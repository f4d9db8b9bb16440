/**
 * "MCP: Install Bundle…" and "MCP: Uninstall Bundle…": a `.mcpb` file is checked (sha256 when given,
 * the zip, the manifest), shown through the install consent, unpacked into a folder of its own
 * (core `installFolderName`: name, content hash, random part) under `<global storage>/bundles` and
 * declared with that folder. Names are unique only in the open workspace, so an install never
 * writes into a folder another declaration (of another workspace) may run; the values given for the
 * bundle's options are bound to that folder (`InputTarget.folder`), so other code is asked again.
 * Uninstalling removes the declaration, the input definitions made for its options and the values
 * stored for them, and its own folder only. Only folders directly inside `bundles` are ever removed.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BundleError, bundleDeclaration, bundleServerName, installFolderName, openBundle, removeBundle, unpackBundle } from '../../core/bundles';
import { inputReferences } from '../../core';
import { SECTION } from '../config';
import type { OnboardingContext } from '../onboarding/declareAndStart';
import { configurationTarget, declaredInputs, declaredServers } from '../onboarding/settingsWriter';
import { pickText } from '../pickText';
import { installWithConsent, type InstallResult } from './install';
import { showError, showInfo } from '../notify';

export type BundleArg = vscode.Uri | string | { readonly path?: string; readonly uri?: string; readonly sha256?: string } | undefined;

export function registerBundles(ctx: OnboardingContext, storage: vscode.Uri): vscode.Disposable[] {
  const root = path.join(storage.fsPath, 'bundles');
  return [
    vscode.commands.registerCommand('mcpHost.installBundle', (arg: BundleArg) => installBundle(ctx, root, arg)),
    vscode.commands.registerCommand('mcpHost.uninstallBundle', (arg: unknown) => uninstallBundle(ctx, root, arg)),
  ];
}

async function bundleFile(arg: BundleArg): Promise<{ file: string; sha256?: string } | undefined> {
  if (arg instanceof vscode.Uri) return { file: arg.fsPath };
  if (typeof arg === 'string') return { file: arg };
  if (arg && (arg.path || arg.uri)) return { file: arg.path ?? vscode.Uri.parse(arg.uri!).fsPath, ...(arg.sha256 ? { sha256: arg.sha256 } : {}) };
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('MCP bundle')]: ['mcpb', 'dxt'] }, title: vscode.l10n.t('Install MCP Bundle') });
  return picked?.[0] && { file: picked[0].fsPath };
}

export async function installBundle(ctx: OnboardingContext, root: string, arg: BundleArg): Promise<InstallResult> {
  const source = await bundleFile(arg);
  if (!source) return { status: 'cancelled' };
  const refuse = (reason: string): InstallResult => {
    const message = vscode.l10n.t('The bundle {0} was not installed: {1}', path.basename(source.file), pickText(reason, 1000));
    void showError(message);
    return { status: 'refused', message };
  };
  let opened;
  try {
    opened = await openBundle(await fs.readFile(source.file), source.sha256);
  } catch (e) {
    return refuse(e instanceof BundleError ? e.message : (e as Error).message);
  }
  const declared = declaredServers();
  const name = bundleServerName(opened.manifest, declared.keys());
  const dir = path.join(root, installFolderName(name, opened.sha256));
  const taken = declaredInputs().map(i => (i as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  const built = bundleDeclaration(opened.manifest, dir, name, taken);
  if (built.errors.length) return refuse(built.errors.join(' '));
  return installWithConsent(ctx, {
    name, declaration: built.declaration, inputs: built.inputs,
    source: vscode.l10n.t('the bundle {0}', source.file),
    prepare: () => unpackBundle(opened, dir),
  });
}

export async function uninstallBundle(ctx: OnboardingContext, root: string, arg: unknown): Promise<{ status: 'uninstalled' | 'cancelled' | 'refused'; message?: string }> {
  const bundles = [...declaredServers()].filter(([, d]) => typeof bundleFolder(d.declaration) === 'string' && path.dirname(path.resolve(bundleFolder(d.declaration)!)) === path.resolve(root));
  let name = typeof arg === 'string' ? arg : (arg as { name?: string } | undefined)?.name;
  if (!name) {
    name = (await vscode.window.showQuickPick(bundles.map(([n]) => n), { title: vscode.l10n.t('Uninstall MCP Bundle'), placeHolder: vscode.l10n.t('Which bundle should be removed?') }));
    if (!name) return { status: 'cancelled' };
  }
  const found = bundles.find(([n]) => n === name);
  if (!found) {
    const message = vscode.l10n.t('"{0}" is not an installed MCP bundle.', name);
    void showError(message);
    return { status: 'refused', message };
  }
  const [, where] = found;
  if (where.target !== 'folder') {
    const config = vscode.workspace.getConfiguration(SECTION);
    const info = config.inspect<Record<string, unknown>>('servers');
    const current = { ...(where.target === 'user' ? info?.globalValue : info?.workspaceValue) };
    delete current[name];
    await config.update('servers', Object.keys(current).length ? current : undefined, configurationTarget(where.target));
    await removeOwnInputs(name, where.declaration, where.target);
    // The values the user gave for the bundle's options (API keys) go with it, not left in SecretStorage.
    await ctx.inputs.forgetServer(name, where.target, bundleFolder(where.declaration));
  }
  await ctx.controller.reload();
  await removeBundle(root, bundleFolder(where.declaration)!);
  void showInfo(vscode.l10n.t('MCP bundle "{0}" was uninstalled.', name));
  return { status: 'uninstalled' };
}

/** The folder a bundle's declaration runs from (its `cwd`), if it has one. */
function bundleFolder(declaration: unknown): string | undefined {
  const cwd = (declaration as { cwd?: unknown } | undefined)?.cwd;
  return typeof cwd === 'string' ? cwd : undefined;
}

/**
 * Removes the `mcpHost.inputs` definitions the bundle's declaration used (made for its user_config at
 * install) from the scope it was installed in, unless a server still declared names them too.
 */
async function removeOwnInputs(name: string, declaration: unknown, target: 'user' | 'workspace'): Promise<void> {
  const own = new Set(inputReferences(declaration).map(r => r.id));
  for (const [other, d] of declaredServers()) if (other !== name) for (const r of inputReferences(d.declaration)) own.delete(r.id);
  if (!own.size) return;
  const config = vscode.workspace.getConfiguration(SECTION);
  const info = config.inspect<unknown[]>('inputs');
  const raw = target === 'user' ? info?.globalValue : info?.workspaceValue;
  const current = Array.isArray(raw) ? raw : [];
  const kept = current.filter(i => !own.has((i as { id?: unknown } | undefined)?.id as string));
  if (kept.length !== current.length) await config.update('inputs', kept.length ? kept : undefined, configurationTarget(target));
}
