/**
 * "Edit Server…" on a server row: a form over every field of the declaration (what runs, environment or
 * headers with secrets by reference, cwd, envFile, timeouts, roots, sandbox, dev, autostart, disabled),
 * checked by the core's parser like Add Server, shown as a diff before anything is written, and written
 * back to the settings scope the server was declared in, through `WorkspaceConfiguration.update` (never
 * an edit of the settings text). Secret values go to SecretStorage; settings keep `${input:…}`.
 * A discovered server's file and VS Code's `mcp.json` are another program's: they are opened, not edited.
 * A workspace's server is not edited in Restricted Mode (the form would be the workspace's, shown as the user's own).
 */
import * as vscode from 'vscode';
import { editServer as applyEdit, entriesOf, splitCommandLine, type EditableField, type EditEntry } from '../../core/onboarding';
import { SECTION } from '../config';
import { InputFlowAction, MultiStepInput, type InputStep } from '../multiStepInput';
import { askEntry, validateUrl } from './addServer';
import type { OnboardingContext } from './declareAndStart';
import { declaredInputs, declaredServers, describeDeclaration, writeAdditions } from './settingsWriter';
import { showError, showInfo, showWarning } from '../notify';

export type EditScope = 'user' | 'workspace' | 'folder';
export type EditServerResult =
  | { readonly status: 'saved'; readonly name: string; readonly scope: EditScope }
  | { readonly status: 'cancelled' }
  | { readonly status: 'notEditable'; readonly reason: 'discovered' | 'untrusted' | 'unknown'; readonly file?: string };

interface Origin { readonly scope: EditScope; readonly folder?: vscode.WorkspaceFolder; readonly declaration: Record<string, unknown> }

/** Where `name` is declared: the most specific scope holding it (that declaration is the one that runs). */
function originOf(name: string): Origin | undefined {
  const own = (v: unknown) => v && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, name) ? (v as Record<string, unknown>)[name] : undefined;
  const isDecl = (d: unknown): d is Record<string, unknown> => !!d && typeof d === 'object' && !Array.isArray(d);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const d = own(vscode.workspace.getConfiguration(SECTION, folder.uri).inspect('servers')?.workspaceFolderValue);
    if (isDecl(d) && (vscode.workspace.workspaceFile || (vscode.workspace.workspaceFolders?.length ?? 0) > 1)) return { scope: 'folder', folder, declaration: d };
  }
  const info = vscode.workspace.getConfiguration(SECTION).inspect('servers');
  const w = own(info?.workspaceValue);
  if (isDecl(w)) return { scope: 'workspace', declaration: w };
  const u = own(info?.globalValue);
  return isDecl(u) ? { scope: 'user', declaration: u } : undefined;
}

const PREVIEW_SCHEME = 'mcphost-edit';
const previews = new Map<string, string>();
let previewProvider: vscode.Disposable | undefined;

/** The before/after JSON as read-only documents for `vscode.diff` (what will be written, nothing else). */
function previewUri(which: 'before' | 'after', name: string, text: string): vscode.Uri {
  previewProvider ??= vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, { provideTextDocumentContent: uri => previews.get(uri.path) });
  const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${which}/${encodeURIComponent(name)}.json` });
  previews.set(uri.path, text);
  return uri;
}

interface FieldItem extends vscode.QuickPickItem { readonly field: EditableField | 'entries' | 'save' }

export async function editServer(ctx: OnboardingContext, name: string | undefined, fileOf: (name: string) => string | undefined): Promise<EditServerResult> {
  name ??= (await vscode.window.showQuickPick([...declaredServers().keys()], { title: vscode.l10n.t('Edit MCP Server'), placeHolder: vscode.l10n.t('Server to edit') }));
  if (!name) return { status: 'cancelled' };
  const origin = originOf(name);
  if (!origin) {
    const file = fileOf(name);
    const open = vscode.l10n.t('Open File');
    const message = file
      ? vscode.l10n.t('MCP server "{0}" comes from {1}, which MCP Host follows but does not edit: change it there.', name, file)
      : vscode.l10n.t('MCP server "{0}" is not declared in MCP Host\'s settings, so it cannot be edited here.', name);
    void showInfo(message, ...(file ? [open] : [])).then(c => { if (c === open && file) void vscode.window.showTextDocument(vscode.Uri.file(file)); });
    return { status: 'notEditable', reason: file ? 'discovered' : 'unknown', ...(file ? { file } : {}) };
  }
  if (origin.scope !== 'user' && !vscode.workspace.isTrusted) {
    void showWarning(vscode.l10n.t('MCP server "{0}" is declared by this workspace, which is not trusted: trust the workspace to edit its servers.', name));
    return { status: 'notEditable', reason: 'untrusted' };
  }

  const original = origin.declaration;
  const kind = typeof original.url === 'string' || original.type === 'http' || original.type === 'sse' ? 'http' : 'stdio';
  const changes: Partial<Record<EditableField, unknown>> = {};
  let entries: EditEntry[] | undefined;
  const current = (f: EditableField) => (Object.hasOwn(changes, f) ? changes[f] : original[f]);
  const currentEntries = () => entries ?? entriesOf(kind === 'http' ? original.headers : original.env);
  const result = () => applyEdit(name, original, { kind, changes, ...(entries ? { entries } : {}) }, declaredInputIds());
  const title = vscode.l10n.t('Edit MCP Server "{0}"', name);
  const show = (v: unknown) => (v === undefined ? vscode.l10n.t('not set') : typeof v === 'string' ? v : JSON.stringify(v));
  let saved = false;

  const form: InputStep = async input => {
    const r = result();
    const entryNames = currentEntries().map(e => (e.secret ? `${e.name} $(lock)` : e.name)).join(', ') || vscode.l10n.t('none');
    const items: FieldItem[] = [
      { field: 'save', label: `$(check) ${vscode.l10n.t('Review and save…')}`, detail: r.errors.length ? `$(error) ${r.errors.join(' ')}` : undefined },
      ...(kind === 'stdio'
        ? [{ field: 'command' as const, label: vscode.l10n.t('Command line'), description: describeDeclaration({ command: current('command'), args: current('args') }) },
          { field: 'entries' as const, label: vscode.l10n.t('Environment variables'), description: entryNames },
          { field: 'envFile' as const, label: vscode.l10n.t('Env file'), description: show(current('envFile')) },
          { field: 'cwd' as const, label: vscode.l10n.t('Working folder'), description: show(current('cwd')) }]
        : [{ field: 'url' as const, label: vscode.l10n.t('URL'), description: show(current('url')) },
          { field: 'entries' as const, label: vscode.l10n.t('Headers'), description: entryNames }]),
      { field: 'timeout', label: vscode.l10n.t('Timeout (seconds)'), description: show(current('timeout')) },
      { field: 'startTimeout', label: vscode.l10n.t('Start timeout (seconds)'), description: show(current('startTimeout')) },
      { field: 'roots', label: vscode.l10n.t('Roots (JSON list)'), description: show(current('roots')) },
      ...(kind === 'stdio' ? [{ field: 'sandbox' as const, label: vscode.l10n.t('Sandbox (JSON)'), description: show(current('sandbox')) }] : []),
      { field: 'dev', label: vscode.l10n.t('Dev mode (JSON)'), description: show(current('dev')) },
      { field: 'autostart', label: vscode.l10n.t('Autostart'), description: show(current('autostart')) },
      { field: 'disabled', label: vscode.l10n.t('Disabled'), description: show(current('disabled') ?? false) },
    ];
    const picked = await input.showQuickPick({ title, step: 1, totalSteps: 2, items, placeholder: vscode.l10n.t('Pick a field to change, then Review and save') });
    if (!('field' in picked)) throw InputFlowAction.resume;
    const f = picked.field;
    if (f === 'save') return review;
    if (f === 'entries') { await editEntries(input); return form; }
    if (f === 'autostart' || f === 'disabled') { await pickChoice(input, f); return form; }
    return editText(f);
  };

  const editText = (f: EditableField): InputStep => async input => {
    const now = current(f);
    const json = ['roots', 'sandbox', 'dev'].includes(f);
    const number = f === 'timeout' || f === 'startTimeout';
    const value = f === 'command' ? describeDeclaration({ command: current('command'), args: current('args') }) : now === undefined ? '' : typeof now === 'string' ? now : JSON.stringify(now);
    const typed = await input.showInputBox({
      title, step: 2, totalSteps: 2, value,
      prompt: f === 'command' ? vscode.l10n.t('Command line that starts the server (quote arguments with spaces)')
        : json ? vscode.l10n.t('{0} as JSON; empty removes it', f)
        : vscode.l10n.t('{0}; empty removes it', f),
      validate: v => {
        if (f === 'command') return splitCommandLine(v).error ? vscode.l10n.t('A quote is not closed.') : splitCommandLine(v).args?.length ? undefined : vscode.l10n.t('Enter the command to run.');
        if (f === 'url') return validateUrl(v);
        if (!v.trim()) return undefined;
        if (number) return Number.isFinite(Number(v)) && Number(v) > 0 ? undefined : vscode.l10n.t('Enter a number of seconds greater than 0.');
        if (json) { try { JSON.parse(v); return undefined; } catch { return vscode.l10n.t('This is not valid JSON.'); } }
        return undefined;
      },
    });
    if (typeof typed !== 'string') throw InputFlowAction.resume;
    if (f === 'command') {
      const [command, ...args] = splitCommandLine(typed).args ?? [];
      changes.command = command;
      changes.args = args;
    } else if (!typed.trim()) changes[f] = undefined;
    else changes[f] = number ? Number(typed) : json ? JSON.parse(typed) as unknown : typed.trim();
    return form;
  };

  const pickChoice = async (input: MultiStepInput, f: 'autostart' | 'disabled') => {
    const options: { label: string; value: unknown }[] = f === 'disabled'
      ? [{ label: vscode.l10n.t('Enabled'), value: undefined }, { label: vscode.l10n.t('Disabled'), value: true }]
      : [{ label: vscode.l10n.t('As mcpHost.autostart says'), value: undefined }, ...['always', 'onDemand', 'never'].map(v => ({ label: v, value: v }))];
    const picked = await input.showQuickPick({ title, step: 2, totalSteps: 2, items: options, placeholder: f });
    if (!('value' in picked)) throw InputFlowAction.resume;
    changes[f] = (picked as { value: unknown }).value;
  };

  const editEntries = async (input: MultiStepInput) => {
    const which = kind === 'http' ? 'headers' : 'env';
    for (;;) {
      const list = currentEntries();
      interface EntryItem extends vscode.QuickPickItem { readonly action: 'done' | 'add' | 'change' | 'remove'; readonly entry?: EditEntry }
      const items: EntryItem[] = [
        { action: 'done', label: `$(arrow-left) ${vscode.l10n.t('Back to the form')}` },
        { action: 'add', label: `$(add) ${which === 'env' ? vscode.l10n.t('Add environment variable…') : vscode.l10n.t('Add header…')}` },
        ...list.flatMap<EntryItem>(e => [
          { action: 'change', entry: e, label: e.name, description: e.secret ? `$(lock) ${vscode.l10n.t('secret')}` : e.value, detail: vscode.l10n.t('Select to change') },
          { action: 'remove', entry: e, label: `$(trash) ${e.name}`, detail: vscode.l10n.t('Select to remove') },
        ]),
      ];
      const picked = await input.showQuickPick({
        title, step: 2, totalSteps: 2, items,
        placeholder: which === 'env' ? vscode.l10n.t('Environment variables (secrets stay in secret storage)') : vscode.l10n.t('Headers (tokens stay in secret storage)'),
      });
      if (!('action' in picked)) continue;
      if (picked.action === 'done') return;
      if (picked.action === 'remove') { entries = list.filter(e => e !== picked.entry); continue; }
      const edited = await askEntry(which, list.map(e => e.name), picked.entry);
      if (!edited) continue;
      const kept = picked.entry && picked.entry.name === edited.name && edited.secret ? { inputId: picked.entry.inputId, raw: picked.entry.raw } : {};
      entries = [...list.filter(e => e !== picked.entry && e.name !== edited.name), { ...edited, ...kept }];
    }
  };

  const review: InputStep = async input => {
    const r = result();
    if (r.errors.length) {
      void showError(vscode.l10n.t('Not saved: {0}', r.errors.join(' ')));
      return form;
    }
    const before = JSON.stringify({ [name]: original }, null, 2);
    const after = JSON.stringify({ [name]: r.declaration }, null, 2);
    const where = origin.scope === 'user' ? vscode.l10n.t('User settings') : origin.scope === 'workspace' ? vscode.l10n.t('Workspace settings') : vscode.l10n.t('Folder settings of {0}', origin.folder!.name);
    await vscode.commands.executeCommand('vscode.diff', previewUri('before', name, before), previewUri('after', name, after), vscode.l10n.t('{0}: "{1}" before ↔ after', where, name), { preview: true, preserveFocus: true });
    interface SaveItem extends vscode.QuickPickItem { readonly save: boolean }
    const items: SaveItem[] = [
      { save: true, label: `$(save) ${vscode.l10n.t('Save to {0}', where)}`, detail: [...r.warnings, ...r.secrets.length ? [vscode.l10n.t('{0} secret value(s) go to VS Code\'s secret storage, not to settings.', r.secrets.length)] : []].join(' ') || undefined },
      { save: false, label: `$(arrow-left) ${vscode.l10n.t('Back to the form')}` },
    ];
    const picked = await input.showQuickPick({ title, step: 2, totalSteps: 2, items, placeholder: vscode.l10n.t('The diff shows what will be written') });
    if (!('save' in picked)) throw InputFlowAction.resume;
    if (!picked.save) return form;
    const target = origin.scope === 'user' ? 'user' : 'workspace';
    await writeAdditions(target, { servers: { [name]: r.declaration }, inputs: r.inputs, secrets: r.secrets }, ctx.inputs, origin.folder);
    saved = true;
    return undefined;
  };

  const completed = await MultiStepInput.run(form);
  if (!completed || !saved) return { status: 'cancelled' };
  await ctx.controller.reload();
  return { status: 'saved', name, scope: origin.scope };
}

function declaredInputIds(): string[] {
  return declaredInputs().map(i => (i as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
}
