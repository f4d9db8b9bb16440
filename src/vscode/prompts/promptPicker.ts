/**
 * "MCP: Run Prompt…" — a filterable QuickPick of every running server's prompts (title or name,
 * server, description, arguments), kept live while servers start or change their prompt lists.
 * Each item has a button that copies the prompt's command id, for keybindings.
 */
import * as vscode from 'vscode';
import type { McpHost, Owned } from '../../core';
import { argumentTitle, promptCommandIds } from '../../core/prompts';
import type { Prompt } from '@modelcontextprotocol/client';
import { plainText } from '../../core/text';
import { showInfo } from '../notify';

export interface PickedPrompt { readonly server: string; readonly prompt: Prompt; }

interface PromptItem extends vscode.QuickPickItem { readonly owned?: Owned<Prompt>; }

const copyButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('copy'), tooltip: vscode.l10n.t('Copy the command id (for keybindings)') });

/** The prompt's title or name as shown (the server wrote it: one plain line, no hidden text). */
export function promptItemLabel(prompt: Prompt): string { return shown(prompt.title ?? prompt.name); }

const shown = (s: string, maxLength = 200) => plainText(s, { singleLine: true, maxLength });

/** `server` limits the list to one server; `filter` prefills the filter text. */
export function pickPrompt(host: McpHost, options: { server?: string; filter?: string } = {}): Promise<PickedPrompt | undefined> {
  const list = () => host.prompts.filter(p => !options.server || p.server === options.server);
  const starting = () => host.servers.some(s => s.state === 'starting' && (!options.server || s.name === options.server));
  if (!list().length && !starting()) {
    void showInfo(options.server
      ? vscode.l10n.t('MCP server "{0}" offers no prompts (or is not running).', options.server)
      : vscode.l10n.t('No running MCP server offers prompts.'));
    return Promise.resolve(undefined);
  }
  return new Promise(resolve => {
    const qp = vscode.window.createQuickPick<PromptItem>();
    qp.title = vscode.l10n.t('Run MCP Prompt');
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.ignoreFocusOut = false;
    let done = false;
    let shown: string | undefined;
    const update = () => {
      qp.busy = starting();
      // Any server's state change calls this; the rows are replaced only when the prompts changed. Replacing
      // them resets the row the user is on (the workbench applies an explicit active row a frame later, and
      // what this side knows of it may already be stale), so Enter right after typing could select nothing.
      const prompts = list();
      const now = JSON.stringify(prompts.map(p => [p.server, host.get(p.server)?.serverInfo?.title, p.item]));
      if (now === shown) return;
      shown = now;
      const active = qp.activeItems[0]?.owned;
      qp.items = items(prompts, host);
      qp.placeholder = qp.items.length ? vscode.l10n.t('Select a prompt to run') : vscode.l10n.t('Waiting for MCP servers to start…');
      const again = active && qp.items.find(i => i.owned?.server === active.server && i.owned.item.name === active.item.name);
      if (again) qp.activeItems = [again];
    };
    const subscriptions = [
      host.onDidChangeCatalog(e => { if (e.kind === 'prompts') update(); }),
      host.onDidChangeState(() => update()),
      qp.onDidTriggerItemButton(e => {
        const o = e.item.owned;
        if (!o) return;
        const id = [...promptCommandIds(host.prompts.map(p => ({ server: p.server, name: p.item.name })))].find(([, r]) => r.server === o.server && r.name === o.item.name)?.[0];
        if (id) void vscode.env.clipboard.writeText(id).then(() => showInfo(vscode.l10n.t('Copied "{0}". Use it as the command of a keybinding; "args" fill the prompt\'s arguments.', id)));
      }),
      qp.onDidAccept(() => {
        const o = (qp.selectedItems[0] ?? qp.activeItems[0])?.owned;
        if (!o) return;
        finish({ server: o.server, prompt: o.item });
      }),
      qp.onDidHide(() => finish(undefined)),
    ];
    const finish = (picked: PickedPrompt | undefined) => {
      if (done) return;
      done = true;
      for (const s of subscriptions) s.dispose();
      qp.dispose();
      resolve(picked);
    };
    update();
    if (options.filter) qp.value = options.filter;
    qp.show();
  });
}

function items(prompts: readonly Owned<Prompt>[], host: McpHost): PromptItem[] {
  const sorted = [...prompts].sort((a, b) => a.server.localeCompare(b.server) || promptItemLabel(a.item).localeCompare(promptItemLabel(b.item)));
  const out: PromptItem[] = [];
  let server: string | undefined;
  for (const owned of sorted) {
    if (owned.server !== server) {
      server = owned.server;
      const info = host.get(server)?.serverInfo;
      out.push({ label: info?.title && info.title !== server ? `${server} (${shown(info.title)})` : server, kind: vscode.QuickPickItemKind.Separator });
    }
    const p = owned.item;
    const args = (p.arguments ?? []).map(a => a.required ? shown(argumentTitle(a)) : `${shown(argumentTitle(a))}?`);
    out.push({
      label: promptItemLabel(p),
      description: p.title && p.title !== p.name ? `${shown(p.name)} · ${owned.server}` : owned.server,
      detail: [p.description && shown(p.description, 400), args.length ? vscode.l10n.t('Arguments: {0}', args.join(', ')) : undefined].filter(Boolean).join(' — ') || undefined,
      buttons: [copyButton()],
      owned,
    });
  }
  return out;
}
