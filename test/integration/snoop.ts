/** Another extension (the scripted-lm fixture) trying MCP Host's read-only documents by URI. */
import * as vscode from 'vscode';

export interface Opened { uri: string; text?: string; error?: string }

/** What the other extension got from `workspace.openTextDocument` for each URI. */
export async function otherExtensionOpens(uris: readonly string[]): Promise<Opened[]> {
  return vscode.commands.executeCommand<Opened[]>('mcpHostTest.consumer.openDocuments', uris);
}

/** The URIs a counter would have given out: `<scheme>:/<prefix><n>/<name>` for n = 1…max. */
export function counterGuesses(scheme: string, name: string, prefix = '', max = 20): string[] {
  return Array.from({ length: max }, (_, i) => `${scheme}:/${prefix}${i + 1}/${name}`);
}

/** The texts the other extension read that hold `secret` (none, when the documents stay private). */
export async function leaked(uris: readonly string[], secret: RegExp): Promise<string[]> {
  return (await otherExtensionOpens(uris)).filter(o => o.text !== undefined && secret.test(o.text)).map(o => o.uri);
}
