/**
 * What VS Code shows in the chat while one of our language-model tools runs (`prepareInvocation`).
 * Every name and argument in it comes from the model's input (and a title from the server), so it
 * is cleaned by the core's `plainText` and put in a Markdown code span: `[x](https://…)`, `# Heading`
 * or a bare URL read literally (escaping alone is not enough: the chat linkifies bare URLs), and
 * bidi or invisible characters cannot reorder or hide what the user reads.
 */
import * as vscode from 'vscode';
import { plainText, type McpHost } from '../../core';
import { inlineCode } from './markdownText';

const clean = (s: unknown, max: number) => plainText(typeof s === 'string' ? s : JSON.stringify(s) ?? '', { singleLine: true, maxLength: max });
const code = inlineCode;
const markdown = (s: string) => new vscode.MarkdownString(s);

/** `Running MCP tool ``tool`` (``title``) from server ``server``: ``a=1, b="x"``` — the arguments cut to a short preview. */
export function callToolMessage(host: McpHost, input: { server?: unknown; tool?: unknown; arguments?: unknown }): vscode.MarkdownString {
  const server = clean(input.server, 100), tool = clean(input.tool, 100);
  const def = typeof input.server === 'string' && typeof input.tool === 'string' ? host.get(input.server)?.tool(input.tool) : undefined;
  const title = def?.title ?? def?.annotations?.title;
  const args = input.arguments && typeof input.arguments === 'object' && !Array.isArray(input.arguments)
    ? clean(Object.entries(input.arguments as Record<string, unknown>).map(([k, v]) => `${k}=${JSON.stringify(v) ?? 'undefined'}`).join(', '), 200)
    : '';
  const head = title
    ? vscode.l10n.t('Running MCP tool {0} ({1}) from server {2}', code(tool), code(clean(title, 100)), code(server))
    : vscode.l10n.t('Running MCP tool {0} from server {1}', code(tool), code(server));
  return markdown(args ? `${head}: ${code(args)}` : head);
}

export function readResourceMessage(input: { server?: unknown; uri?: unknown }): vscode.MarkdownString {
  return markdown(vscode.l10n.t('Reading {0} from MCP server {1}', code(clean(input.uri, 300)), code(clean(input.server ?? '', 100))));
}
