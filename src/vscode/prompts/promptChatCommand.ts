/**
 * `@mcp /prompt server.prompt name=value …`: the handler the `@mcp` participant calls for its
 * `/prompt` command. It gets the prompt (arguments from the text; bare words fill them in order),
 * sends its messages to the request's model and streams the answer. Without a target it lists the
 * prompts. Errors (unknown prompt, missing argument, server error) are answered in words.
 */
import * as vscode from 'vscode';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { McpHost } from '../../core';
import { argumentTitle, getPromptFromCommand, PromptError, renderBlock } from '../../core/prompts';
import { modelText } from '../../core/text';
import { inlineCode, markdownText } from '../chat/markdownText';

export type PromptChatCommand = (request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken) => Promise<vscode.ChatResult>;

export function promptChatCommand(host: McpHost): PromptChatCommand {
  return async (request, stream, token) => {
    if (!request.prompt.trim()) {
      stream.markdown(promptList(host));
      return { metadata: { command: 'prompt', listed: true } };
    }
    let got;
    // The participant's shared token→signal helper (src/vscode/cancellation.ts) is not committed yet; same conversion.
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      stream.progress(vscode.l10n.t('Getting the prompt…'));
      got = await getPromptFromCommand(host, request.prompt, { signal: abort.signal });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // The message may quote the server (its JSON-RPC error, its argument names): literal text, not Markdown.
      stream.markdown(markdownText(message, 2000));
      return { errorDetails: { message }, metadata: { command: 'prompt', error: e instanceof PromptError ? e.code : 'internal' } };
    } finally {
      sub.dispose();
    }
    const { command, result } = got;
    // Progress is Markdown: the prompt's title is the server's.
    stream.progress(vscode.l10n.t('Running prompt {0} from {1}…', markdownText(got.prompt.title ?? got.prompt.name, 100), inlineCode(command.server)));
    try {
      const response = await request.model.sendRequest(toChatMessages(result), {}, token);
      for await (const chunk of response.text) stream.markdown(chunk);
    } catch (e) {
      if (!(e instanceof vscode.LanguageModelError)) throw e;
      stream.markdown(vscode.l10n.t('The language model could not answer: {0}', e.message));
      return { errorDetails: { message: e.message }, metadata: { command: 'prompt', server: command.server, prompt: command.prompt } };
    }
    return { metadata: { command: 'prompt', server: command.server, prompt: command.prompt, args: command.args } };
  };
}

/**
 * The prompt's messages for `vscode.lm`: text, and resources, links, images and audio as their
 * Markdown rendering (this VS Code API version has no image parts for chat requests), each through the
 * model-facing cleaner the gateway uses (core/text/modelBlock.ts): no invisible payload, no bracket
 * that ends or forges a host block.
 */
export function toChatMessages(result: GetPromptResult): vscode.LanguageModelChatMessage[] {
  return result.messages.map(m => {
    const text = modelText(m.content.type === 'text' ? m.content.text
      : m.content.type === 'image' ? `[image: ${m.content.mimeType}, not included]`
      : renderBlock(m.content));
    return m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(text) : vscode.LanguageModelChatMessage.User(text);
  });
}

function promptList(host: McpHost): string {
  const prompts = host.prompts;
  if (!prompts.length) return vscode.l10n.t('No running MCP server offers prompts.');
  const lines = prompts.map(({ server, item }) => {
    const args = (item.arguments ?? []).map(a => a.required ? `${a.name}=…` : `[${a.name}=…]`).join(' ');
    const titles = (item.arguments ?? []).filter(a => argumentTitle(a) !== a.name).map(a => `${a.name}: ${argumentTitle(a)}`);
    return `- \`/prompt ${server}.${item.name}${args ? ` ${args}` : ''}\`${item.description ? ` — ${item.description}` : ''}${titles.length ? ` (${titles.join(', ')})` : ''}`;
  });
  return `${vscode.l10n.t('Prompts of the running MCP servers:')}\n\n${lines.join('\n')}\n`;
}
