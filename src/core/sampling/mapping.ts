/**
 * MCP sampling requests ⇄ a neutral chat request shaped like VS Code's language model API
 * (user/assistant messages of text, image, tool-call and tool-result parts), so the VS Code adapter
 * only swaps these plain objects for `vscode.LanguageModel*` classes.
 *
 * What the API allows and what it doesn't:
 * - No system role in the stable API (it is a proposal), so `systemPrompt` becomes the first user
 *   message, marked as instructions.
 * - `maxTokens`, `temperature` and `stopSequences` go into `modelOptions` under the names most
 *   providers read (`max_tokens`, `temperature`, `stop`, as in the OpenAI-style APIs); providers
 *   may ignore them, so the host also enforces stop sequences and the token limit on the response
 *   itself (see {@link ResponseAccumulator} and the sampling service).
 * - Images become data parts when the model accepts images; audio (and images for a model that
 *   takes none) become a short text note, because the API has no way to send them.
 */
import type { ContentBlock, CreateMessageResult, CreateMessageResultWithTools, SamplingMessageContentBlock, Tool } from '@modelcontextprotocol/client';
import type { ModelInfo } from './modelChoice';
import { blocksOf, type CreateMessageParams } from './validate';
import { isRecord } from '../isRecord';

export type ChatPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: Uint8Array }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly content: readonly ChatPart[]; readonly isError?: boolean };

export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly ChatPart[];
}

export interface ChatTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly modelOptions: Readonly<Record<string, unknown>>;
  /** Absent when the request has no tools or toolChoice is "none". */
  readonly tools?: readonly ChatTool[];
  readonly toolMode?: 'auto' | 'required';
}

export const SYSTEM_PROMPT_PREFIX = 'System instructions for this conversation:\n';

export function toChatRequest(params: CreateMessageParams, model: Pick<ModelInfo, 'supportsImages'> = {}): ChatRequest {
  const messages: ChatMessage[] = [];
  if (params.systemPrompt) messages.push({ role: 'user', parts: [{ kind: 'text', text: SYSTEM_PROMPT_PREFIX + params.systemPrompt }] });
  for (const m of params.messages) {
    messages.push({ role: m.role, parts: blocksOf(m).map(b => toPart(b, model)) });
  }
  const modelOptions: Record<string, unknown> = { max_tokens: params.maxTokens };
  if (params.temperature !== undefined) modelOptions.temperature = params.temperature;
  if (params.stopSequences?.length) modelOptions.stop = [...params.stopSequences];
  const useTools = !!params.tools?.length && params.toolChoice?.mode !== 'none';
  return {
    messages,
    modelOptions,
    ...(useTools ? { tools: params.tools!.map(toChatTool), toolMode: params.toolChoice?.mode === 'required' ? 'required' as const : 'auto' as const } : {}),
  };
}

function toChatTool(t: Tool): ChatTool {
  return { name: t.name, description: t.description ?? t.title ?? t.name, inputSchema: t.inputSchema };
}

function toPart(b: SamplingMessageContentBlock, model: Pick<ModelInfo, 'supportsImages'>): ChatPart {
  switch (b.type) {
    case 'text': return { kind: 'text', text: b.text };
    case 'image': return imagePart(b.data, b.mimeType, model);
    case 'audio': return { kind: 'text', text: omitted('audio', b.mimeType, b.data) };
    case 'tool_use': return { kind: 'toolCall', callId: b.id, name: b.name, input: b.input };
    case 'tool_result': {
      const content = b.content.map(c => resultPart(c, model));
      if (!content.length && b.structuredContent) content.push({ kind: 'text', text: JSON.stringify(b.structuredContent) });
      return { kind: 'toolResult', callId: b.toolUseId, content, ...(b.isError ? { isError: true } : {}) };
    }
  }
}

function resultPart(c: ContentBlock, model: Pick<ModelInfo, 'supportsImages'>): ChatPart {
  switch (c.type) {
    case 'text': return { kind: 'text', text: c.text };
    case 'image': return imagePart(c.data, c.mimeType, model);
    case 'audio': return { kind: 'text', text: omitted('audio', c.mimeType, c.data) };
    case 'resource_link': return { kind: 'text', text: `[resource ${c.uri}${c.name ? ` (${c.name})` : ''}]` };
    case 'resource': return { kind: 'text', text: 'text' in c.resource ? c.resource.text : `[resource ${c.resource.uri}, ${c.resource.mimeType ?? 'binary'} content not shown]` };
  }
}

function imagePart(base64: string, mimeType: string, model: Pick<ModelInfo, 'supportsImages'>): ChatPart {
  if (model.supportsImages === false) return { kind: 'text', text: omitted('image', mimeType, base64, 'the chosen model does not accept images') };
  return { kind: 'image', mimeType, data: Buffer.from(base64, 'base64') };
}

function omitted(what: string, mimeType: string, base64: string, why = 'the VS Code language model API cannot send it'): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return `[${what} (${mimeType}, ${Math.floor(base64.length * 3 / 4) - padding} bytes) omitted: ${why}]`;
}

export type StopReason = 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse';
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools;

/**
 * Collects a streamed answer. Stop sequences are enforced here because providers may ignore
 * `modelOptions.stop`: text is cut before the first stop sequence and the stream should end.
 */
export class ResponseAccumulator {
  private _text = '';
  private readonly calls: { id: string; name: string; input: Record<string, unknown> }[] = [];
  private _stopReason: StopReason | undefined;
  private readonly longestStop: number;

  constructor(private readonly stopSequences: readonly string[] = []) {
    this.longestStop = Math.max(0, ...stopSequences.map(s => s.length));
  }

  get text(): string { return this._text; }
  get stopReason(): StopReason | undefined { return this._stopReason; }
  /** True once a stop condition ended the answer; the caller stops reading the stream. */
  get stopped(): boolean { return this._stopReason !== undefined; }

  addText(chunk: string): void {
    if (this.stopped) return;
    const from = Math.max(0, this._text.length - this.longestStop + 1);
    this._text += chunk;
    let cut = -1;
    for (const s of this.stopSequences) {
      if (!s) continue;
      const i = this._text.indexOf(s, from);
      if (i >= 0 && (cut < 0 || i < cut)) cut = i;
    }
    if (cut >= 0) {
      this._text = this._text.slice(0, cut);
      this._stopReason = 'stopSequence';
    }
  }

  addToolCall(id: string, name: string, input: unknown): void {
    if (this.stopped) return;
    this.calls.push({ id, name, input: isRecord(input) ? input : { value: input } });
  }

  /** The answer hit the token limit: keep `length` characters of text and stop. */
  truncate(length: number): void {
    this._text = this._text.slice(0, length);
    this._stopReason = 'maxTokens';
  }

  /**
   * The result for the server. Without tools the spec's single-block form is used (tool calls the
   * model should not have made are dropped); with tools the content is an array of text and tool_use.
   */
  result(model: string, withTools: boolean): SamplingResult {
    const calls = withTools ? this.calls : [];
    const stopReason: StopReason = this._stopReason ?? (calls.length ? 'toolUse' : 'endTurn');
    if (!withTools) return { role: 'assistant', model, stopReason, content: { type: 'text', text: this._text } };
    const content: CreateMessageResultWithTools['content'] = [];
    if (this._text || !calls.length) content.push({ type: 'text', text: this._text });
    for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
    return { role: 'assistant', model, stopReason, content };
  }
}
