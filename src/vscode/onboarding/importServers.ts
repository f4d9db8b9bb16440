/**
 * "MCP: Import Servers…" — copies servers from Claude Desktop, Cursor, Claude Code and VS Code's own
 * `mcp.json` (or any file the user picks) into `mcpHost.servers`: source → preview with checkboxes
 * (every field each server will get, the dangerous ones flagged and left unchecked, what was changed,
 * what cannot be imported) → user or workspace settings (the workspace's for a file inside it).
 * The conversion is the core's (src/core/onboarding/importConfig.ts); secret values found in the
 * files go to SecretStorage, never to settings. A report lists what changed and what was left out.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  configLocations, convertConfigText, defaultImportTarget, reviewDeclaration, type ConfigLocation, type ConversionNote, type ConversionResult,
  type ConvertedServer, type ImportRisk, type ReviewedField, type SkipReason, type SourceKind,
} from '../../core/onboarding';
import { InputFlowAction, MultiStepInput, type InputStep } from '../multiStepInput';
import type { OnboardingContext } from './declareAndStart';
import { declaredInputs, declaredServers, describeDeclaration, hasWorkspace, writeAdditions, type Target } from './settingsWriter';
import { showError, showInfo, showWarning } from '../notify';

export interface ImportResult {
  readonly status: 'imported' | 'cancelled' | 'nothing';
  readonly imported?: readonly string[];
  readonly skipped?: readonly { readonly name: string; readonly reason: string }[];
  readonly target?: Target;
  /** The Markdown report (also offered to the user). */
  readonly report?: string;
}

/** Command arguments: a file (Uri or path) skips the source step; `target` skips the target step. */
export interface ImportArgs {
  readonly file?: vscode.Uri | string;
  readonly target?: Target;
}

interface Source {
  readonly uri: vscode.Uri;
  readonly kind: SourceKind | 'file';
  readonly folder?: string;
  readonly result: ConversionResult;
}

interface SourceItem extends vscode.QuickPickItem { readonly source?: Source; readonly browse?: boolean }
interface ServerItem extends vscode.QuickPickItem { readonly server?: ConvertedServer; readonly blocked?: string }
interface TargetItem extends vscode.QuickPickItem { readonly target: Target }

export function sourceLabel(kind: SourceKind | 'file', folder?: string): string {
  switch (kind) {
    case 'claudeDesktop': return vscode.l10n.t('Claude Desktop');
    case 'claudeCode': return vscode.l10n.t('Claude Code (.mcp.json in {0})', folder ?? '');
    case 'cursorUser': return vscode.l10n.t('Cursor (user)');
    case 'cursorWorkspace': return vscode.l10n.t('Cursor (.cursor/mcp.json in {0})', folder ?? '');
    case 'vscodeUser': return vscode.l10n.t('VS Code (user mcp.json)');
    case 'vscodeWorkspace': return vscode.l10n.t('VS Code (.vscode/mcp.json in {0})', folder ?? '');
    default: return vscode.l10n.t('File');
  }
}

export async function importServers(ctx: OnboardingContext, args?: ImportArgs | vscode.Uri | string, editorUserDir?: vscode.Uri): Promise<ImportResult> {
  const opts: ImportArgs = args instanceof vscode.Uri || typeof args === 'string' ? { file: args } : args ?? {};
  const title = vscode.l10n.t('Import MCP Servers');
  const withTarget = !opts.target && hasWorkspace();
  const state: { source?: Source; picked?: ConvertedServer[]; target?: Target } = { target: opts.target };
  const first = opts.file ? await readSource(typeof opts.file === 'string' ? vscode.Uri.file(opts.file) : opts.file, 'file') : undefined;
  if (first) state.source = first;
  const total = (first ? 1 : 2) + (withTarget ? 1 : 0);
  const stepOf = (n: number) => (first ? n - 1 : n);

  const pickSource: InputStep = async input => {
    const sources = await discover(editorUserDir);
    const items: SourceItem[] = sources.map(s => ({
      source: s,
      label: sourceLabel(s.kind, s.folder),
      description: s.result.error ? vscode.l10n.t('cannot be read') : vscode.l10n.t('{0} server(s)', s.result.servers.length + s.result.skipped.length),
      detail: tildify(s.uri.fsPath),
    }));
    items.push({ browse: true, label: `$(folder-opened) ${vscode.l10n.t('Choose a file…')}`, detail: vscode.l10n.t('Any JSON file with "mcpServers" or "servers"') });
    const picked = await input.showQuickPick({
      title, step: 1, totalSteps: total, items,
      placeholder: sources.length ? vscode.l10n.t('Import servers from…') : vscode.l10n.t('No configuration of Claude Desktop, Cursor or VS Code was found; choose a file'),
    });
    if (!('label' in picked)) throw InputFlowAction.resume;
    if (picked.browse) {
      const uris = await vscode.window.showOpenDialog({
        title, canSelectMany: false, openLabel: vscode.l10n.t('Import'),
        filters: { [vscode.l10n.t('MCP configuration')]: ['json', 'jsonc'], [vscode.l10n.t('All files')]: ['*'] },
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir()),
      });
      if (!uris?.[0]) throw InputFlowAction.resume;
      state.source = await readSource(uris[0], 'file');
    } else {
      state.source = picked.source;
    }
    return pickServers;
  };

  const pickServers: InputStep = async input => {
    const source = state.source!;
    const fileError = problemOfFile(source.result);
    if (fileError) {
      void showError(vscode.l10n.t('Nothing to import from {0}: {1}', tildify(source.uri.fsPath), fileError));
      if (first) throw InputFlowAction.cancel;
      throw InputFlowAction.back;
    }
    const declared = declaredServers();
    const items: ServerItem[] = source.result.servers.map(server => {
      const existing = declared.get(server.name);
      const same = existing && JSON.stringify(existing.declaration) === JSON.stringify(server.declaration);
      // Every field is shown, risky ones first: a stray Enter must not import what the user did not see.
      const fields = reviewDeclaration(server.declaration);
      const risky = fields.filter(f => f.risk);
      const details = [...risky.map(fieldText), ...server.notes.map(noteText), ...fields.filter(f => !f.risk && !SHOWN_IN_DESCRIPTION.has(f.field)).map(fieldText)];
      if (existing && !same) details.unshift(vscode.l10n.t('replaces the server of the same name in {0} settings', scopeLabel(existing.target)));
      if (same) details.unshift(vscode.l10n.t('already declared in {0} settings', scopeLabel(existing.target)));
      return {
        server,
        label: server.name,
        iconPath: risky.length ? new vscode.ThemeIcon('warning') : undefined,
        description: `${server.type} · ${describeDeclaration(server.declaration)}`,
        detail: details.join(' · ') || undefined,
        // Flagged servers are imported only when the user checks them, next to the warning.
        picked: !existing && !risky.length,
      };
    });
    if (source.result.skipped.length) {
      items.push({ label: vscode.l10n.t('Cannot be imported'), kind: vscode.QuickPickItemKind.Separator });
      for (const s of source.result.skipped) {
        const why = skipText(s.reason);
        items.push({ label: `$(error) ${s.name}`, detail: why, blocked: vscode.l10n.t('"{0}" cannot be imported: {1}', s.name, why) });
      }
    }
    const picked = await input.showQuickPickMany({
      title: vscode.l10n.t('{0} from {1}', title, sourceLabel(source.kind, source.folder)),
      step: stepOf(2), totalSteps: total, items, matchOnDescription: true, matchOnDetail: true,
      placeholder: vscode.l10n.t('Select the servers to import'),
      selectedItems: items.filter(i => i.picked),
      validate: selection => {
        const blocked = selection.find(i => i.blocked);
        if (blocked) return blocked.blocked;
        return selection.length ? undefined : vscode.l10n.t('Select at least one server.');
      },
    });
    if (!Array.isArray(picked)) throw InputFlowAction.resume;
    state.picked = (picked as readonly ServerItem[]).flatMap(i => i.server ? [i.server] : []);
    return withTarget ? pickTarget : undefined;
  };

  const pickTarget: InputStep = async input => {
    const fromWorkspace = ['vscodeWorkspace', 'cursorWorkspace', 'claudeCode'].includes(state.source!.kind)
      || await defaultImportTarget(state.source!.uri.fsPath, workspaceFolderPaths()) === 'workspace';
    const items: TargetItem[] = [
      { target: 'user', label: `$(account) ${vscode.l10n.t('User settings')}`, detail: vscode.l10n.t('Available in every workspace.') },
      { target: 'workspace', label: `$(folder) ${vscode.l10n.t('Workspace settings')}`, detail: vscode.l10n.t('Only in this workspace; workspace servers start only when the workspace is trusted.') },
    ];
    const picked = await input.showQuickPick({
      title, step: stepOf(3), totalSteps: total, items, placeholder: vscode.l10n.t('Where should the servers be declared?'),
      activeItem: items.find(i => i.target === (state.target ?? (fromWorkspace ? 'workspace' : 'user'))),
    });
    if (!('target' in picked)) throw InputFlowAction.resume;
    state.target = picked.target;
  };

  if (!(await MultiStepInput.run(first ? pickServers : pickSource))) return { status: 'cancelled' };
  const source = state.source!;
  const servers = state.picked ?? [];
  if (!servers.length) return { status: 'nothing' };
  const target = state.target ?? 'user';

  // Inputs shared by several servers are written once.
  const inputs = [...new Map(servers.flatMap(s => s.inputs).map(i => [i.id, i])).values()];
  await writeAdditions(target, {
    servers: Object.fromEntries(servers.map(s => [s.name, s.declaration])),
    inputs,
    secrets: servers.flatMap(s => s.secrets),
  }, ctx.inputs);
  void ctx.controller.reload();
  void vscode.commands.executeCommand('mcpHost.servers.focus');

  const skipped = source.result.skipped.map(s => ({ name: s.name, reason: skipText(s.reason) }));
  const report = buildReport(source, servers, skipped, target);
  const showReport = vscode.l10n.t('Show Report');
  const message = skipped.length
    ? vscode.l10n.t('Imported {0} MCP server(s) into {1} settings; {2} could not be imported.', servers.length, scopeLabel(target), skipped.length)
    : vscode.l10n.t('Imported {0} MCP server(s) into {1} settings.', servers.length, scopeLabel(target));
  void (skipped.length ? showWarning(message, showReport) : showInfo(message, showReport)).then(async choice => {
    if (choice === showReport) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content: report }));
  });
  return { status: 'imported', imported: servers.map(s => s.name), skipped, target, report };
}

/** Shown in the item's description (what the server runs), so not repeated in its detail. */
const SHOWN_IN_DESCRIPTION = new Set(['type', 'command', 'args', 'url']);

function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
}

function fieldText(f: ReviewedField): string {
  const text = `${f.field} = ${f.value}`;
  return f.risk ? `$(warning) ${text} — ${riskText(f.risk)}` : text;
}

function riskText(risk: ImportRisk): string {
  switch (risk) {
    case 'loadsCode': return vscode.l10n.t('can make the server run other code');
    case 'searchPath': return vscode.l10n.t('changes where programs and modules are found');
    case 'network': return vscode.l10n.t('changes where packages come from or how connections are checked');
    case 'workingDirectory': return vscode.l10n.t('the server starts in this folder: npx, python and uvx may run code found there');
    case 'envFile': return vscode.l10n.t('the variables in this file are not shown here and are not checked');
  }
}

async function discover(editorUserDir?: vscode.Uri): Promise<Source[]> {
  const locations = configLocations({
    platform: process.platform, home: os.homedir(), env: process.env,
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => ({ name: f.name, path: f.uri.fsPath })),
    editorUserDir: editorUserDir?.scheme === 'file' ? editorUserDir.fsPath : undefined,
  });
  const found = await Promise.all(locations.map(async (l: ConfigLocation) => {
    const uri = vscode.Uri.file(l.path);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return undefined;
    }
    return readSource(uri, l.kind, l.folder);
  }));
  return found.filter((s): s is Source => !!s);
}

async function readSource(uri: vscode.Uri, kind: SourceKind | 'file', folder?: string): Promise<Source> {
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    return { uri, kind, folder, result: { servers: [], skipped: [], error: { kind: 'json', message: e instanceof Error ? e.message : String(e) } } };
  }
  const result = convertConfigText(text, { source: kind === 'file' ? uri.fsPath : sourceLabel(kind, folder), existingInputs: declaredInputs() });
  return { uri, kind, folder, result };
}

function problemOfFile(result: ConversionResult): string | undefined {
  if (!result.error) return result.servers.length || result.skipped.length ? undefined : vscode.l10n.t('it declares no servers');
  return result.error.kind === 'json'
    ? vscode.l10n.t('it is not valid JSON ({0})', result.error.message)
    : vscode.l10n.t('it has no "mcpServers" or "servers" object');
}

function noteText(note: ConversionNote): string {
  switch (note.kind) {
    // The variable is an argument: vscode.l10n.t does not replace a placeholder nested in other braces.
    case 'secretMoved': return vscode.l10n.t('{0} → secret storage ({1})', note.field, `\${input:${note.input}}`);
    case 'fieldDropped': return vscode.l10n.t('"{0}" is not supported and was left out', note.field);
    case 'fieldRenamed': return vscode.l10n.t('"{0}" became "{1}"', note.from, note.to);
    case 'inputRenamed': return vscode.l10n.t('input "{0}" renamed to "{1}" (settings define "{0}" differently)', note.from, note.to);
    case 'inputUndefined': return vscode.l10n.t('{0} is not defined in the file; you will be asked for it on the first start', `\${input:${note.input}}`);
    case 'inputUnsupported': return vscode.l10n.t('input "{0}" of type "{1}" is asked as text on the first start', note.input, note.type);
  }
}

function skipText(reason: SkipReason): string {
  switch (reason.kind) {
    case 'notAnObject': return vscode.l10n.t('the declaration is not an object');
    case 'unknownType': return vscode.l10n.t('unknown transport type "{0}"', reason.type);
    case 'invalid': return reason.problems.join(' ');
  }
}

function scopeLabel(target: Target | 'folder'): string {
  return target === 'user' ? vscode.l10n.t('user') : target === 'workspace' ? vscode.l10n.t('workspace') : vscode.l10n.t('folder');
}

function tildify(p: string): string {
  const home = os.homedir();
  return home && p.startsWith(home) ? `~${p.slice(home.length)}` : p;
}

function buildReport(source: Source, servers: readonly ConvertedServer[], skipped: readonly { name: string; reason: string }[], target: Target): string {
  const lines = [
    `# ${vscode.l10n.t('MCP servers imported from {0}', sourceLabel(source.kind, source.folder))}`,
    '',
    vscode.l10n.t('File: {0}', tildify(source.uri.fsPath)),
    vscode.l10n.t('Written to: {0} settings ("mcpHost.servers")', scopeLabel(target)),
    '',
    `## ${vscode.l10n.t('Imported')}`,
    '',
  ];
  for (const s of servers) {
    lines.push(`- **${s.name}** (${s.type}): \`${describeDeclaration(s.declaration)}\``);
    for (const f of reviewDeclaration(s.declaration)) {
      const text = `\`${f.field}\` = \`${f.value}\``;
      if (!SHOWN_IN_DESCRIPTION.has(f.field)) lines.push(`  - ${f.risk ? `⚠ ${text} — ${riskText(f.risk)}` : text}`);
    }
    for (const n of s.notes) lines.push(`  - ${noteText(n)}`);
    for (const w of s.warnings) lines.push(`  - ${vscode.l10n.t('warning: {0}', w)}`);
  }
  if (skipped.length) {
    lines.push('', `## ${vscode.l10n.t('Not imported')}`, '');
    for (const s of skipped) lines.push(`- **${s.name}**: ${s.reason}`);
  }
  if (servers.some(s => s.secrets.length)) {
    lines.push('', vscode.l10n.t('Secret values were stored in VS Code\'s secret storage and are referenced as ${input:…}; "MCP: Clear Stored Input Values" forgets them.'));
  }
  return `${lines.join('\n')}\n`;
}
