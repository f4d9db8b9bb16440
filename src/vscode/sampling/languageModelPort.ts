/** The core's model port over `vscode.lm`: lists chat models, streams answers, counts tokens. */
import * as vscode from 'vscode';
import type { ChatRequest, ModelInfo, ResponsePart, SamplingModelPort } from '../../core/sampling';
import { toChatMessages, toRequestOptions } from './chatMessages';

/** Run-time fields newer VS Code puts on `LanguageModelChat` (not in @types/vscode 1.104). */
interface ChatCapabilities { readonly capabilities?: { readonly supportsToolCalling?: boolean; readonly supportsImageToText?: boolean } }

export class LanguageModelPort implements SamplingModelPort {
  private chats = new Map<string, vscode.LanguageModelChat>();

  async listModels(): Promise<readonly ModelInfo[]> {
    const chats = await vscode.lm.selectChatModels();
    this.chats = new Map(chats.map(c => [`${c.vendor}/${c.id}`, c]));
    return chats.map(c => {
      const caps = (c as vscode.LanguageModelChat & ChatCapabilities).capabilities;
      return {
        id: c.id, name: c.name, family: c.family, vendor: c.vendor, version: c.version, maxInputTokens: c.maxInputTokens,
        supportsToolCalling: caps?.supportsToolCalling, supportsImages: caps?.supportsImageToText,
      };
    });
  }

  async *send(model: ModelInfo, request: ChatRequest, options: { readonly justification: string; readonly signal: AbortSignal }): AsyncIterable<ResponsePart> {
    const chat = await this.chat(model);
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    options.signal.addEventListener('abort', onAbort);
    if (options.signal.aborted) cts.cancel();
    try {
      const response = await chat.sendRequest(toChatMessages(request), toRequestOptions(request, options.justification), cts.token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value };
        else if (part instanceof vscode.LanguageModelToolCallPart) yield { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
      }
    } catch (e) {
      throw new Error(describeError(e), { cause: e });
    } finally {
      // Leaving the loop early (stop sequence, token limit) also ends the request.
      options.signal.removeEventListener('abort', onAbort);
      cts.cancel();
      cts.dispose();
    }
  }

  async countTokens(model: ModelInfo, text: string, signal: AbortSignal): Promise<number> {
    const chat = await this.chat(model);
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort);
    try { return await chat.countTokens(text, cts.token); }
    finally { signal.removeEventListener('abort', onAbort); cts.dispose(); }
  }

  private async chat(model: ModelInfo): Promise<vscode.LanguageModelChat> {
    const known = this.chats.get(`${model.vendor}/${model.id}`);
    if (known) return known;
    const [found] = await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.id });
    if (!found) throw new Error(`The model ${model.vendor}/${model.id} is no longer available.`);
    return found;
  }
}

function describeError(e: unknown): string {
  if (e instanceof vscode.LanguageModelError) {
    if (e.code === vscode.LanguageModelError.NoPermissions.name) return `MCP Host is not allowed to use this model (${e.message}). Allow it when VS Code asks, or in the Language Models settings.`;
    if (e.code === vscode.LanguageModelError.Blocked.name) return `The model refused the request, for example because a quota is exhausted (${e.message}).`;
    if (e.code === vscode.LanguageModelError.NotFound.name) return `The model is no longer available (${e.message}).`;
  }
  return e instanceof Error ? e.message : String(e);
}
