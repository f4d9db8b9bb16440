/** Driving @mcp from the extension host: send a query, wait for the scripted model, read tool results. */
import * as vscode from 'vscode';
import { scriptedLm, waitFor, type RecordedPart, type RecordedRequest } from './helpers';

/** The model a person picks in the Chat view's model picker (`modelSelector` sets the picker, as a click would). */
export const SCRIPTED_MODEL = { vendor: 'scripted', id: 'scripted-fast' };

/**
 * Picks the scripted model in the Chat view. Needed once per window: until the Chat view has a model,
 * VS Code answers a request with "Language model unavailable" before any participant runs (with no
 * model picked it falls back to the default model, which only a "copilot" vendor can provide).
 */
export async function pickScriptedModel(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { modelSelector: SCRIPTED_MODEL });
}

export async function ask(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, modelSelector: SCRIPTED_MODEL });
}

export async function requestsAtLeast(n: number, ms: number): Promise<RecordedRequest[]> {
  let last: RecordedRequest[] = [];
  await waitFor(async () => { last = await scriptedLm.requests(); return last.length >= n; }, ms, `${n} model request(s)`);
  return last;
}

/** The text of every tool result the model received in `req`. */
export function toolResultText(req: RecordedRequest): string {
  const parts = req.messages.flatMap(m => m.content).filter(p => p.type === 'toolResult');
  return parts.flatMap(p => p.type === 'toolResult' ? p.content : []).map(c => c.type === 'text' ? c.value : '').join('\n');
}

/** The tool result for `callId` the model received in `req` (its own fields: `isError`, one content part per result part). */
export function toolResultOf(req: RecordedRequest, callId: string): Extract<RecordedPart, { type: 'toolResult' }> {
  const found = req.messages.flatMap(m => m.content).find(p => p.type === 'toolResult' && p.callId === callId);
  if (!found || found.type !== 'toolResult') throw new Error(`the model received no tool result for ${callId}: ${JSON.stringify(req.messages)}`);
  return found;
}

/** The texts of a tool result's content parts. */
export function texts(result: Extract<RecordedPart, { type: 'toolResult' }>): string[] {
  return result.content.map(c => (c.type === 'text' ? c.value : `[${c.type}]`));
}
