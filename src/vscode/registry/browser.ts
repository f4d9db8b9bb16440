/**
 * "MCP: Browse MCP Registry…": a QuickPick that searches the registry as the user types (debounced),
 * lists name, description, publisher, version, repository, transports and package types, and loads
 * the next page on "Load more…". Choosing a server picks how to install it (when it offers several
 * packages or remotes), builds the declaration and goes through the install consent.
 */
import * as vscode from 'vscode';
import {
  entryKinds, installOptions, registryDeclaration, RegistryClient, RegistryError, suggestRegistryServerName,
  type InstallOption, type RegistryEntry,
} from '../../core/registry';
import type { OnboardingContext } from '../onboarding/declareAndStart';
import { declaredInputs, declaredServers } from '../onboarding/settingsWriter';
import { pickText } from '../pickText';
import { installWithConsent, type InstallResult } from './install';
import { registryUrl } from './settings';
import { showError } from '../notify';

const DEBOUNCE_MS = 300;
const PAGE_SIZE = 30;

interface RowItem extends vscode.QuickPickItem { readonly entry?: RegistryEntry; readonly loadMore?: true }
interface OptionItem extends vscode.QuickPickItem { readonly option: InstallOption }

/** A row for one entry (all of it registry text, cleaned). */
export function entryRow(entry: RegistryEntry): RowItem {
  const s = entry.server;
  const { packageTypes, transports } = entryKinds(s);
  const publisher = s.name.includes('/') ? s.name.slice(0, s.name.indexOf('/')) : '';
  return {
    entry, alwaysShow: true,
    label: `$(${s.remotes?.length && !s.packages?.length ? 'globe' : 'package'}) ${pickText(s.title ?? s.name, 120)}`,
    description: pickText([s.title ? s.name : '', s.version ? `v${s.version}` : '', publisher && vscode.l10n.t('by {0}', publisher)].filter(Boolean).join(' · '), 200),
    detail: pickText([s.description ?? '', [...packageTypes, ...transports].join(', '), s.repository?.url ?? ''].filter(Boolean).join(' — '), 400),
  };
}

export async function browseRegistry(ctx: OnboardingContext): Promise<InstallResult> {
  let client: RegistryClient;
  try { client = new RegistryClient(registryUrl(ctx.controller.policy)); } catch (e) {
    void showError((e as Error).message);
    return { status: 'refused', message: (e as Error).message };
  }
  const entry = await pickEntry(client);
  if (!entry) return { status: 'cancelled' };
  return installEntry(ctx, client, entry);
}

/** Install one entry: choose among its packages/remotes, convert, consent. */
export async function installEntry(ctx: OnboardingContext, client: RegistryClient, entry: RegistryEntry): Promise<InstallResult> {
  const options = installOptions(entry.server);
  const usable = options.filter(o => !o.unsupported);
  if (!usable.length) {
    const why = options.map(o => `${o.label}: ${o.unsupported}`).join('; ') || vscode.l10n.t('it lists no package and no remote');
    const message = vscode.l10n.t('"{0}" cannot be installed from the registry: {1}', pickText(entry.server.name), pickText(why));
    void showError(message);
    return { status: 'refused', message };
  }
  let option = usable[0];
  if (usable.length > 1) {
    const picked = await pickWithProbe<OptionItem>(usable.map(o => ({ option: o, label: pickText(o.label, 300) })), vscode.l10n.t('How should "{0}" run?', pickText(entry.server.name)));
    if (!picked) return { status: 'cancelled' };
    option = picked.option;
  }
  const name = suggestRegistryServerName(entry.server, declaredServers().keys());
  const taken = declaredInputs().map(i => (i as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  const built = registryDeclaration(entry.server, option.choice, name, taken);
  if (built.errors.length) {
    const message = vscode.l10n.t('"{0}" was not installed: {1}', pickText(entry.server.name), pickText(built.errors.join(' ')));
    void showError(message);
    return { status: 'refused', message };
  }
  return installWithConsent(ctx, {
    name, declaration: built.declaration, inputs: built.inputs, source: vscode.l10n.t('the MCP registry at {0}', client.baseUrl),
    registry: { registryUrl: client.baseUrl, entry: entry.server.name, version: entry.server.version },
  });
}

async function pickEntry(client: RegistryClient): Promise<RegistryEntry | undefined> {
  const qp = vscode.window.createQuickPick<RowItem>();
  qp.title = vscode.l10n.t('MCP Registry: {0}', client.baseUrl);
  qp.placeholder = vscode.l10n.t('Search servers by name');
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.ignoreFocusOut = true;
  let rows: RowItem[] = [];
  let cursor: string | undefined;
  let search = '';
  let request: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loadMore: RowItem = { loadMore: true, alwaysShow: true, label: `$(ellipsis) ${vscode.l10n.t('Load more…')}` };
  const load = async (append: boolean) => {
    request?.abort();
    const ctl = (request = new AbortController());
    qp.busy = true;
    try {
      const page = await client.search(search, append ? cursor : undefined, PAGE_SIZE, ctl.signal);
      if (ctl.signal.aborted) return;
      rows = [...(append ? rows : []), ...page.entries.map(entryRow)];
      cursor = page.nextCursor;
      qp.items = [...rows, ...(cursor ? [loadMore] : [])];
      qp.placeholder = rows.length ? vscode.l10n.t('Search servers by name') : vscode.l10n.t('No server matches "{0}".', search);
    } catch (e) {
      if (ctl.signal.aborted) return;
      const message = e instanceof RegistryError ? e.message : String(e);
      qp.items = [{ label: `$(error) ${vscode.l10n.t('The registry could not be searched')}`, detail: message, alwaysShow: true }];
      if (e instanceof RegistryError && e.code === 'offline') void showError(message);
    } finally {
      if (request === ctl) qp.busy = false;
    }
  };
  const disposables: vscode.Disposable[] = [];
  try {
    return await new Promise<RegistryEntry | undefined>(resolve => {
      disposables.push(
        qp.onDidChangeValue(value => {
          clearTimeout(timer);
          timer = setTimeout(() => { search = value; void load(false); }, DEBOUNCE_MS);
        }),
        qp.onDidAccept(() => {
          const item = qp.selectedItems[0] ?? qp.activeItems[0];
          if (item?.loadMore) void load(true);
          else if (item?.entry) resolve(item.entry);
        }),
        qp.onDidHide(() => resolve(undefined)),
      );
      qp.show();
      void load(false);
    });
  } finally {
    clearTimeout(timer);
    request?.abort();
    disposables.forEach(d => d.dispose());
    qp.dispose();
  }
}

async function pickWithProbe<T extends vscode.QuickPickItem>(items: T[], title: string): Promise<T | undefined> {
  const qp = vscode.window.createQuickPick<T>();
  qp.title = title;
  qp.items = items;
  const disposables: vscode.Disposable[] = [];
  try {
    return await new Promise<T | undefined>(resolve => {
      disposables.push(qp.onDidAccept(() => resolve(qp.selectedItems[0])), qp.onDidHide(() => resolve(undefined)));
      qp.show();
    });
  } finally {
    disposables.forEach(d => d.dispose());
    qp.dispose();
  }
}
