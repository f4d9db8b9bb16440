/**
 * The human in the loop for sampling, with QuickPicks (keyboard-drivable, and they stay open while
 * the user reads the full request beside them):
 *  - before sending: the server, every message, the system prompt, the model and the token limit;
 *    allow once / always for this server / edit the request / use another model / reject;
 *  - after the answer: send it back / edit it / reject.
 * Closing a prompt (Escape) rejects. Edits happen in an untitled editor and are validated before use.
 */
import * as vscode from 'vscode';
import { specTypeSchemas, type SamplingMessageContentBlock } from '@modelcontextprotocol/client';
import {
  blocksOf, samplingRequestProblems,
  type Approval, type ApprovalRequest, type CreateMessageParams, type ModelInfo, type Review, type ReviewRequest, type SamplingResult, type SamplingUiPort,
} from '../../core/sampling';
import type { ServerRef } from '../../core';
import { pickText } from '../pickText';
import type { SamplingDocuments } from './samplingDocuments';
import { openSamplingSettings } from './samplingSettings';
import { showError, showWarning } from '../notify';

type ItemOf<A> = vscode.QuickPickItem & { action?: A };
const separator = <A>(label: string): ItemOf<A> => ({ label, kind: vscode.QuickPickItemKind.Separator });

export class SamplingPrompts implements SamplingUiPort {
  constructor(private readonly docs: SamplingDocuments, private readonly showServerLog: (server: string) => void) {}

  async approve(r: ApprovalRequest, signal: AbortSignal): Promise<Approval> {
    const server = r.server.name;
    let params = r.params;
    let model = r.model;
    let edited = false, changedModel = false;
    for (;;) {
      type A = 'once' | 'always' | 'edit' | 'model' | 'show' | 'reject';
      // Reject comes first and is active: the prompt appears unasked, and a stray Enter must not allow.
      const items: ItemOf<A>[] = [
        { label: `$(close) ${vscode.l10n.t('Reject')}`, description: vscode.l10n.t('the server gets an error'), action: 'reject', picked: true, alwaysShow: true },
        { label: `$(check) ${vscode.l10n.t('Allow once')}`, action: 'once' },
        { label: `$(check-all) ${vscode.l10n.t('Always allow "{0}"', server)}`, description: vscode.l10n.t('this program only; MCP: Manage Tool Approvals… revokes it'), action: 'always' },
        { label: `$(edit) ${vscode.l10n.t('Edit the request…')}`, action: 'edit' },
        ...(r.candidates.length > 1 ? [{ label: `$(symbol-class) ${vscode.l10n.t('Use another model…')}`, description: model.name, action: 'model' as const }] : []),
        { label: `$(go-to-file) ${vscode.l10n.t('Show the full request')}`, action: 'show' },
        separator(vscode.l10n.t('Request{0}', edited ? vscode.l10n.t(' (edited)') : '')),
        ...requestItems(params).map(i => ({ ...i, action: 'show' as const })),
      ];
      const choice = await pick<A>({
        title: vscode.l10n.t('MCP server "{0}" wants to use a language model (request #{1})', server, r.entryId),
        placeholder: (r.programChanged ? `${vscode.l10n.t('mcpHost.sampling allows "{0}", but for the program that was declared under that name before, not this one.', server)} ` : '')
          + vscode.l10n.t('{0} ({1}) · up to {2} tokens{3} — allow, edit or reject', model.name, `${model.vendor}/${model.id}`, params.maxTokens,
            r.redactions ? vscode.l10n.t(' · {0} secret(s) redacted', r.redactions) : ''),
        items,
        keepActive: true,
      }, signal);
      switch (choice) {
        case 'once': case 'always':
          return { action: choice, ...(edited ? { params } : {}), ...(changedModel ? { model } : {}) };
        case 'edit': {
          const next = await this.editRequest(server, params, signal);
          if (next) { params = next; edited = true; }
          break;
        }
        case 'model': {
          const next = await pick<ModelInfo>({
            title: vscode.l10n.t('Model for MCP server "{0}"', server),
            placeholder: vscode.l10n.t('Models allowed for this server'),
            items: r.candidates.map(m => ({ label: m.name, description: `${m.vendor}/${m.id}`, detail: m.maxInputTokens ? vscode.l10n.t('{0} input tokens', m.maxInputTokens) : undefined, action: m, picked: m === model })),
          }, signal);
          if (next) { model = next; changedModel = next !== r.model; }
          break;
        }
        case 'show':
          await this.docs.showSnapshot(`request-${r.entryId}.md`, requestMarkdown(server, params, model));
          break;
        default:
          return { action: 'reject' };
      }
    }
  }

  async review(r: ReviewRequest, signal: AbortSignal): Promise<Review> {
    const server = r.server.name;
    let result = r.result;
    let edited = false;
    for (;;) {
      type A = 'send' | 'edit' | 'show' | 'reject';
      const text = singleText(result);
      const items: ItemOf<A>[] = [
        { label: `$(check) ${vscode.l10n.t('Send the answer to "{0}"', server)}`, action: 'send' },
        ...(text !== undefined ? [{ label: `$(edit) ${vscode.l10n.t('Edit the answer…')}`, action: 'edit' as const }] : []),
        { label: `$(go-to-file) ${vscode.l10n.t('Show the full answer')}`, action: 'show' },
        { label: `$(close) ${vscode.l10n.t('Reject')}`, description: vscode.l10n.t('the server gets an error'), action: 'reject' },
        separator(vscode.l10n.t('Answer{0}', edited ? vscode.l10n.t(' (edited)') : '')),
        ...contentItems(Array.isArray(result.content) ? result.content : [result.content]).map(i => ({ ...i, action: 'show' as const })),
      ];
      const choice = await pick<A>({
        title: vscode.l10n.t('Return this answer to MCP server "{0}"? (request #{1})', server, r.entryId),
        placeholder: vscode.l10n.t('{0} · stop reason: {1}', r.model.name, result.stopReason ?? '?'),
        items,
      }, signal);
      switch (choice) {
        case 'send':
          return { action: 'send', ...(edited ? { result } : {}) };
        case 'edit': {
          const next = await this.editText(text ?? '', 'plaintext', vscode.l10n.t('Edit the answer in the editor, then choose "Send the edited answer"'), vscode.l10n.t('Send the edited answer'), signal);
          if (next !== undefined) { result = { ...result, content: { type: 'text', text: next } } as SamplingResult; edited = true; }
          break;
        }
        case 'show':
          await this.docs.showSnapshot(`answer-${r.entryId}.md`, ['# Answer', '', '```json', JSON.stringify(result, null, 2), '```', ''].join('\n'));
          break;
        default:
          return { action: 'reject' };
      }
    }
  }

  notifyNoModel(server: ServerRef, message: string): void {
    const settings = vscode.l10n.t('Open Settings'), log = vscode.l10n.t('Show Log');
    void showWarning(
      vscode.l10n.t('MCP server "{0}" asked for a language model. {1} Install and sign in to a language model provider (such as GitHub Copilot Chat), or change "allowedModels" / "defaultModel" for this server in the setting mcpHost.sampling.', server.name, message),
      settings, log,
    ).then(choice => {
      if (choice === settings) void openSamplingSettings();
      else if (choice === log) this.showServerLog(server.name);
    });
  }

  /** The editable parts of the request as JSON in an untitled editor; undefined = edits discarded. */
  private async editRequest(server: string, params: CreateMessageParams, signal: AbortSignal): Promise<CreateMessageParams | undefined> {
    const editable = { systemPrompt: params.systemPrompt, messages: params.messages, maxTokens: params.maxTokens, temperature: params.temperature, stopSequences: params.stopSequences };
    let json = JSON.stringify(editable, null, 2);
    for (;;) {
      const text = await this.editText(json, 'json', vscode.l10n.t('Edit the request of "{0}" in the editor, then choose "Send the edited request"', server), vscode.l10n.t('Send the edited request'), signal);
      if (text === undefined) return undefined;
      json = text;
      const parsed = parseEditedRequest(params, text);
      if (typeof parsed !== 'string') return parsed;
      void showError(vscode.l10n.t('The edited request is not valid: {0}', parsed));
    }
  }

  /** Opens `content` in an untitled editor until the user sends (→ the text) or discards (→ undefined). */
  private async editText(content: string, language: string, title: string, sendLabel: string, signal: AbortSignal): Promise<string | undefined> {
    const doc = await vscode.workspace.openTextDocument({ language, content });
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    try {
      const choice = await pick<'send' | 'discard'>({
        title, placeholder: vscode.l10n.t('The editor beside holds the text; this prompt stays open while you edit'),
        items: [{ label: `$(send) ${sendLabel}`, action: 'send' }, { label: `$(discard) ${vscode.l10n.t('Discard the edits')}`, action: 'discard' }],
      }, signal);
      return choice === 'send' ? doc.getText() : undefined;
    } finally {
      await closeWithoutSaving(doc);
    }
  }
}

/** The edited JSON merged over the original request, or a sentence saying what is wrong. */
export function parseEditedRequest(original: CreateMessageParams, text: string): CreateMessageParams | string {
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) { return e instanceof Error ? e.message : String(e); }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return vscode.l10n.t('expected a JSON object');
  const v = value as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...original };
  for (const key of ['systemPrompt', 'messages', 'maxTokens', 'temperature', 'stopSequences']) {
    if (v[key] === undefined || v[key] === null) delete merged[key];
    else merged[key] = v[key];
  }
  const checked = specTypeSchemas.CreateMessageRequestParams['~standard'].validate(merged);
  if (checked.issues) return checked.issues.map(i => `${(i.path ?? []).map(p => typeof p === 'object' ? String(p.key) : String(p)).join('.')}: ${i.message}`).join('; ');
  const problems = samplingRequestProblems(checked.value, { toolsDeclared: true });
  return problems.length ? problems.join(' ') : checked.value;
}

function requestItems(params: CreateMessageParams): vscode.QuickPickItem[] {
  const items: vscode.QuickPickItem[] = [];
  if (params.systemPrompt) items.push({ label: `$(gear) ${vscode.l10n.t('System prompt')}`, detail: oneLine(params.systemPrompt) });
  for (const m of params.messages) {
    for (const item of contentItems(blocksOf(m))) items.push({ ...item, label: `${m.role === 'user' ? '$(account)' : '$(hubot)'} ${m.role}: ${item.label}` });
  }
  return items;
}

function contentItems(blocks: readonly SamplingMessageContentBlock[]): vscode.QuickPickItem[] {
  return blocks.map(b => {
    switch (b.type) {
      case 'text': return { label: 'text', detail: oneLine(b.text) };
      case 'image': case 'audio': return { label: b.type, detail: `${b.mimeType}, ${b.data.length} base64 characters` };
      case 'tool_use': return { label: `tool call ${pickText(b.name, 100)}`, detail: oneLine(JSON.stringify(b.input)) };
      case 'tool_result': return { label: `tool result${b.isError ? ' (error)' : ''}`, detail: oneLine(b.content.map(c => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ')) };
    }
  });
}

function requestMarkdown(server: string, params: CreateMessageParams, model: ModelInfo): string {
  return [
    `# Sampling request from "${server}"`, '',
    `- model: ${model.name} (${model.vendor}/${model.id})`,
    `- maxTokens: ${params.maxTokens}`,
    ...(params.temperature !== undefined ? [`- temperature: ${params.temperature}`] : []),
    ...(params.stopSequences?.length ? [`- stopSequences: ${JSON.stringify(params.stopSequences)}`] : []),
    ...(params.tools?.length ? [`- tools: ${params.tools.map(t => t.name).join(', ')} (toolChoice ${params.toolChoice?.mode ?? 'auto'})`] : []),
    '', '## System prompt', '', params.systemPrompt ?? '(none)',
    ...params.messages.flatMap((m, i) => ['', `## Message ${i + 1}: ${m.role}`, '', ...blocksOf(m).map(blockMarkdown)]),
    '',
  ].join('\n');
}

function blockMarkdown(b: SamplingMessageContentBlock): string {
  switch (b.type) {
    case 'text': return b.text;
    case 'image': case 'audio': return `[${b.type}: ${b.mimeType}, ${b.data.length} base64 characters]`;
    default: return ['```json', JSON.stringify(b, null, 2), '```'].join('\n');
  }
}

function singleText(result: SamplingResult): string | undefined {
  const c = result.content;
  if (!Array.isArray(c)) return c.type === 'text' ? c.text : undefined;
  return c.length === 1 && c[0].type === 'text' ? c[0].text : undefined;
}

/** Server and model text shown in the prompt: cleaned, one line, codicons not rendered. */
function oneLine(s: string, max = 400): string {
  return pickText(s, max + 1);
}

/** A QuickPick that resolves with the chosen item's action (undefined when closed) and closes when `signal` aborts. */
function pick<A>(options: { title: string; placeholder: string; items: ItemOf<A>[]; keepActive?: boolean }, signal: AbortSignal): Promise<A | undefined> {
  return new Promise<A | undefined>((resolve, reject) => {
    const qp = vscode.window.createQuickPick<ItemOf<A>>();
    qp.title = options.title;
    qp.placeholder = options.placeholder;
    qp.items = options.items;
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    const picked = options.items.find(i => i.picked);
    if (picked) qp.activeItems = [picked];
    let done = false;
    const subs: vscode.Disposable[] = [];
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      for (const s of subs) s.dispose();
      qp.hide();
      qp.dispose();
      settle();
    };
    const onAbort = () => finish(() => reject(new Error('cancelled')));
    // `keepActive`: typing filters but does not move the highlight off the picked (safe) item.
    if (picked && options.keepActive) subs.push(qp.onDidChangeValue(() => { qp.activeItems = [picked]; }));
    subs.push(
      qp.onDidAccept(() => { const item = qp.selectedItems[0] ?? qp.activeItems[0]; finish(() => resolve(item?.action)); }),
      qp.onDidHide(() => finish(() => resolve(undefined))),
    );
    if (signal.aborted) { onAbort(); return; }
    signal.addEventListener('abort', onAbort, { once: true });
    qp.show();
  });
}

async function closeWithoutSaving(doc: vscode.TextDocument): Promise<void> {
  if (doc.isClosed) return;
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}
