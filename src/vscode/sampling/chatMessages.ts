/** The core's neutral chat request → `vscode.LanguageModelChatMessage`s and request options. */
import * as vscode from 'vscode';
import type { ChatPart, ChatRequest } from '../../core/sampling';

/** `LanguageModelDataPart` (images) exists at run time in VS Code ≥ 1.105; @types/vscode 1.104 lacks it. */
interface DataPartClass { image(data: Uint8Array, mimeType: string): unknown }
const DataPart = (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

/** `isError` is a third constructor argument at run time in newer VS Code (ignored by older ones). */
const ToolResultPart = vscode.LanguageModelToolResultPart as unknown as new (callId: string, content: unknown[], isError?: boolean) => vscode.LanguageModelToolResultPart;

export function toChatMessages(request: ChatRequest): vscode.LanguageModelChatMessage[] {
  return request.messages.map(m => new vscode.LanguageModelChatMessage(
    m.role === 'user' ? vscode.LanguageModelChatMessageRole.User : vscode.LanguageModelChatMessageRole.Assistant,
    m.parts.map(toPart) as vscode.LanguageModelInputPart[],
  ));
}

export function toRequestOptions(request: ChatRequest, justification: string): vscode.LanguageModelChatRequestOptions {
  return {
    justification,
    modelOptions: { ...request.modelOptions },
    ...(request.tools ? {
      tools: request.tools.map(t => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      toolMode: request.toolMode === 'required' ? vscode.LanguageModelChatToolMode.Required : vscode.LanguageModelChatToolMode.Auto,
    } : {}),
  };
}

function toPart(p: ChatPart): unknown {
  switch (p.kind) {
    case 'text': return new vscode.LanguageModelTextPart(p.text);
    case 'image': return DataPart ? DataPart.image(p.data, p.mimeType) : new vscode.LanguageModelTextPart(`[image (${p.mimeType}) omitted: this VS Code cannot send images to language models]`);
    case 'toolCall': return new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input);
    case 'toolResult': return new ToolResultPart(p.callId, p.content.map(toPart), p.isError);
  }
}
