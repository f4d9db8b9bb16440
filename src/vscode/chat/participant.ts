/**
 * The `@mcp` chat participant: sends the conversation and the enabled MCP tools to the request's
 * model and runs the tool-calling loop until the model stops calling tools (bounded rounds).
 * Tool results — errors included — go back to the model; references are shown to the user.
 */
import * as vscode from 'vscode';
import { appContextMessage, appResourceUri, type AppModelContext, boundHistory, budgetResult, countTextTokens, type CountTokens, imagesForModel, imagesToShow, modelToolCost, historyBudget, type HistoryTurn, instructionsMessage, MAX_INSTRUCTIONS_TOTAL, FIND_TOOLS, findToolsDefinition, findToolsResult, LOAD_SKILL, MAX_FOUND_TOOLS, offerTools, READ_RESULT_TOOL, readResultDefinition, resultTokenBudget, type McpHost } from '../../core';
import { catalogIndex, chatToolBudget, enabledTools, toChatTool, type CatalogTool } from './toolCatalog';
import { scopedTools } from './requestScope';
import type { KeptResults } from './keptResults';
import { readSetting } from '../settingsReader';
import type { ToolInvoker } from './toolInvoker';
import { fileNameFor } from '../resources/mime';
import { imageParts, readsImages } from './modelImages';
import { resourceFileUri } from '../resources/resourceFileSystem';
import { PARTICIPANT_ID } from '../lazy/contract';
import { OPEN_APP_COMMAND } from '../apps/appsFeature';
import { markdownText } from './markdownText';
import { ChatSkills } from './chatSkills';

const MAX_ROUNDS = 16;
/**
 * VS Code's tool result part takes `isError` as a third argument at run time and hands it to the
 * model provider (not in the stable typings of @types/vscode 1.104; versions without it ignore it).
 */
const ToolResult = vscode.LanguageModelToolResultPart as unknown as new (callId: string, content: unknown[], isError?: boolean) => vscode.LanguageModelToolResultPart;

export interface ParticipantDeps {
  readonly host: McpHost;
  readonly invoker: ToolInvoker;
  readonly kept: KeptResults;
  /** Handles `/prompt …`; provided by the prompts feature. */
  /** MCP Apps: the context each open app set for the model (`ui/update-model-context`). */
  readonly appContexts?: (servers: readonly string[]) => { server: string; context: AppModelContext }[];
  readonly promptCommand?: (request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken) => Promise<vscode.ChatResult | void>;
}

/** The `@mcp` participant's request handler (the activation entry creates the participant itself, see lazy/contract.ts). */
export function participantHandler(deps: ParticipantDeps): vscode.ChatRequestHandler {
  return (request, chatContext, stream, token) => handle(deps, request, chatContext, stream, token);
}

async function handle(deps: ParticipantDeps, request: vscode.ChatRequest, chatContext: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  if (request.command === 'tools') return listTools(deps.host, stream);
  if (request.command === 'prompt') {
    if (deps.promptCommand) return (await deps.promptCommand(request, stream, token)) ?? {};
    stream.markdown(vscode.l10n.t('Use **MCP: Run Prompt…** from the Command Palette to run a prompt.'));
    return {};
  }

  const scoped = scopedTools(deps.host, request, stream);
  if (!scoped) return {};
  const all = scoped.tools;
  const index = catalogIndex(all);
  const ranked = index.rank(scoped.prompt);
  const budget = chatToolBudget(request.model.maxInputTokens);
  // Tools the model pulled in with find_tools, newest first: they stay offered for the rest of the request.
  const pulled: CatalogTool[] = [];
  // Budgets in the model's own tokens (its countTokens), the estimate only if it cannot count.
  const countTokens: CountTokens = text => Promise.resolve(request.model.countTokens(text, token));
  const toolCost = await modelToolCost(ranked.slice(0, budget.maxTools), countTokens);
  let offer = offerTools(ranked, budget, toolCost, pulled);
  if (!offer.complete) stream.markdown(vscode.l10n.t('_{0} MCP tools are enabled; the {1} most relevant to your request were offered, and the model can search the others._\n\n', all.length, offer.offered.length));

  const resultBudgetSetting = readSetting<unknown>('chat.maxResultTokens');
  // Offered once a result was too large and kept, so the model can page through it.
  let offerReader = false;

  const instructions = new InstructionsSent(deps, request.model.maxInputTokens, stream);
  // Skills of the servers in scope: names and descriptions only; a skill is read when the model loads it.
  const skills = await ChatSkills.of(deps.host, scoped.servers);
  const messages = [...instructions.for(offer.offered), ...skills.messages(), ...history(chatContext, request.model.maxInputTokens), ...appContext(deps, all), ...await references(request), vscode.LanguageModelChatMessage.User(request.prompt)];
  // One "Open app" button per server whose app a tool of this response showed, after the answer: a
  // finished response folds everything before its last text into "Completed N steps".
  const appButtons = new Set<string>();
  const answered = (result: vscode.ChatResult): vscode.ChatResult => {
    for (const server of appButtons) {
      stream.button({ command: OPEN_APP_COMMAND, title: vscode.l10n.t('Open app'), tooltip: vscode.l10n.t('Show the app of MCP server "{0}" again', server), arguments: [server] });
    }
    return result;
  };
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const tools = offer.offered.map(toChatTool);
      if (!offer.complete) tools.push(findToolsDefinition);
      if (offerReader) tools.push(readResultDefinition);
      tools.push(...skills.tools());
      const byName = new Map<string, CatalogTool>(offer.offered.map(t => [t.name, t]));
      const response = await request.model.sendRequest(messages, { tools, justification: vscode.l10n.t('@mcp uses the tools of your MCP servers.') }, token);
      const calls: vscode.LanguageModelToolCallPart[] = [];
      const assistant: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) { stream.markdown(part.value); assistant.push(part); }
        else if (part instanceof vscode.LanguageModelToolCallPart) { calls.push(part); assistant.push(part); }
      }
      if (!calls.length) return answered({ metadata: { rounds: round + 1 } });
      messages.push(vscode.LanguageModelChatMessage.Assistant(assistant));
      const results: vscode.LanguageModelToolResultPart[] = [];
      // Several confirmations of this turn are asked in one prompt (answers bound to each call's tool definition).
      const mcpCalls = calls.flatMap(call => { const t = byName.get(call.name); return t ? [{ call, server: t.server, tool: t.tool.name, args: (call.input ?? {}) as Record<string, unknown> }] : []; });
      const batched = await deps.invoker.batch(mcpCalls, token);
      const batchOf = new Map(mcpCalls.map((c, i) => [c.call, batched[i]]));
      for (const call of calls) {
        if (token.isCancellationRequested) break;
        if (call.name === FIND_TOOLS && !offer.complete) {
          // Pulling a tool in only offers it: calling it still goes through the invoker's consent.
          const query = String((call.input as { query?: unknown } | undefined)?.query ?? '');
          const hits = index.search(query, MAX_FOUND_TOOLS);
          pulled.unshift(...hits.map(h => h.tool).filter(t => !pulled.includes(t)));
          offer = offerTools(ranked, budget, toolCost, pulled);
          results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(findToolsResult(query, hits))]));
          continue;
        }
        if (call.name === READ_RESULT_TOOL && offerReader) {
          const input = (call.input ?? {}) as { uri?: unknown; offset?: unknown; length?: unknown };
          const page = deps.kept.read(String(input.uri ?? ''), Number(input.offset ?? 0), Number(input.length ?? 0) || undefined);
          results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(page)]));
          continue;
        }
        if (call.name === LOAD_SKILL && skills.offered.length) {
          const loaded = await skills.load(call.input, stream);
          results.push(new ToolResult(call.callId, [new vscode.LanguageModelTextPart(loaded.text)], loaded.isError));
          continue;
        }
        const t = byName.get(call.name);
        if (!t) {
          results.push(new ToolResult(call.callId, [new vscode.LanguageModelTextPart(`There is no tool named ${call.name}.`)], true));
          continue;
        }
        const r = await deps.invoker.invoke({ server: t.server, tool: t.tool.name, args: (call.input ?? {}) as Record<string, unknown>, token, onProgress: m => stream.progress(m), batch: batchOf.get(call) });
        for (const p of r.parts) {
          // Resources the tool pointed at open through our read-only file system provider.
          if (p.kind === 'reference') stream.reference(resourceFileUri(t.server, p.uri, 0, fileNameFor(p.uri, p.name, p.mimeType)));
        }
        for (const img of imagesToShow(r.parts)) stream.markdown(new vscode.MarkdownString(`\n\n![${vscode.l10n.t('Image from {0}', t.name)}](data:${img.mimeType};base64,${img.base64})\n\n`));
        if (r.outcome !== 'ok') stream.markdown(`\n\n> ${markdownText(r.text.split('\n')[0], 500)}\n\n`);
        else if (appResourceUri(t.tool)) appButtons.add(t.server);
        const resultBudget = resultTokenBudget(t.server, request.model.maxInputTokens, resultBudgetSetting);
        const resultTokens = await countTextTokens(r.text, countTokens);
        const budgeted = budgetResult(deps.kept.store, t.server, t.tool.name, r.text, resultBudget, resultTokens);
        if (budgeted.kept) {
          offerReader = true;
          stream.markdown(vscode.l10n.t('_The result of {0} ({1} characters) is larger than the model may read at once: it gets the start and can read the rest from the kept document._\n\n', t.name, r.text.length));
          stream.reference(vscode.Uri.parse(budgeted.kept.uri));
        }
        const texts = budgeted.kept ? [budgeted.text] : r.texts;
        // Images go along as image parts (the placeholders stay, naming type and size) while they fit the budget.
        const images = imagesForModel(r.parts, readsImages(request.model), resultBudget, budgeted.kept ? resultBudget : resultTokens);
        results.push(new ToolResult(call.callId, [...texts.map(x => new vscode.LanguageModelTextPart(x)), ...imageParts(images)], r.isError));
      }
      if (token.isCancellationRequested) return answered({ metadata: { cancelled: true } });
      messages.push(vscode.LanguageModelChatMessage.User(results));
      // Servers whose tools find_tools pulled in bring their instructions along, within the same cap.
      messages.push(...instructions.for(offer.offered));
    }
    stream.markdown(vscode.l10n.t('\n\n_Stopped after {0} rounds of tool calls._', MAX_ROUNDS));
    return answered({ metadata: { rounds: MAX_ROUNDS } });
  } catch (e) {
    if (e instanceof vscode.LanguageModelError) {
      stream.markdown(vscode.l10n.t('The language model could not answer: {0}', e.message));
      return { errorDetails: { message: e.message } };
    }
    throw e;
  }
}

/**
 * The instructions of the servers whose tools are offered, each server's once per request: one
 * attributed message for the first offer, another when find_tools brings in tools of other servers,
 * all within one cap. The user sees which servers' instructions the model got and can open them.
 */
class InstructionsSent {
  private readonly sent = new Set<string>();
  private remaining: number;

  constructor(private readonly deps: ParticipantDeps, maxInputTokens: number, private readonly stream: vscode.ChatResponseStream) {
    this.remaining = Math.min(MAX_INSTRUCTIONS_TOTAL, Math.floor(maxInputTokens * 4 / 10));
  }

  for(offered: readonly CatalogTool[]): vscode.LanguageModelChatMessage[] {
    const servers = [...new Set(offered.map(t => t.server))].filter(s => !this.sent.has(s));
    for (const s of servers) this.sent.add(s);
    const entries = servers.map(server => ({ server, instructions: this.deps.host.get(server)?.instructions ?? '' })).filter(e => e.instructions.trim());
    const text = instructionsMessage(entries, this.remaining);
    if (!text) return [];
    this.remaining -= text.length;
    const kept = this.deps.kept.store.keep('mcp-host', 'server-instructions', text);
    this.stream.markdown(vscode.l10n.t('_The model was given the instructions of {0}._ ', entries.map(e => `\`${e.server.replace(/`/g, "'")}\``).join(', ')));
    // A button, not an anchor: VS Code shows an anchor to a URI by its file name and drops the title.
    this.stream.button({ command: 'vscode.open', title: vscode.l10n.t('Show instructions'), arguments: [vscode.Uri.parse(kept.uri)] });
    this.stream.markdown('\n\n');
    return [vscode.LanguageModelChatMessage.User(text)];
  }
}

/** The contexts the apps of the servers in scope set, as one message marked as theirs (not the user's). */
function appContext(deps: ParticipantDeps, tools: readonly CatalogTool[]): vscode.LanguageModelChatMessage[] {
  const text = deps.appContexts && appContextMessage(deps.appContexts([...new Set(tools.map(t => t.server))]));
  return text ? [vscode.LanguageModelChatMessage.User(text)] : [];
}

function listTools(host: McpHost, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const tools = enabledTools(host);
  if (!tools.length) {
    stream.markdown(vscode.l10n.t('No MCP tools are available. Configure servers under `mcpHost.servers`.'));
    return {};
  }
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  for (const [server, list] of byServer) {
    // Names and descriptions are the server's: literal text, never Markdown (links, images, headings).
    stream.markdown(`**${markdownText(server, 100)}**\n`);
    for (const t of list) {
      const about = (t.tool.title ?? t.tool.description ?? '').split('\n')[0].trim();
      stream.markdown(`- ${markdownText(t.name, 128)}${appResourceUri(t.tool) ? ` _${vscode.l10n.t('(has an app)')}_` : ''}${about ? ` — ${markdownText(about, 200)}` : ''}\n`);
    }
    stream.markdown('\n');
  }
  return {};
}

/** Earlier @mcp turns, bounded by the model's input: listings summarised, long answers shortened, oldest dropped first. */
function history(ctx: vscode.ChatContext, maxInputTokens: number): vscode.LanguageModelChatMessage[] {
  const turns: HistoryTurn[] = [];
  for (const turn of ctx.history) {
    if (turn.participant !== PARTICIPANT_ID) continue;
    if (turn instanceof vscode.ChatRequestTurn) turns.push({ role: 'user', text: turn.prompt, bulky: turn.command === 'tools' ? 'asked for the list of MCP tools' : undefined });
    else if (turn instanceof vscode.ChatResponseTurn) {
      // Images shown inline go back as a word, not as their base64.
      const text = turn.response.map(r => r instanceof vscode.ChatResponseMarkdownPart ? r.value.value.replace(/!\[([^\]]*)\]\(data:[^)]*\)/g, '[$1]') : '').join('');
      if (text) turns.push({ role: 'assistant', text, bulky: turn.command === 'tools' ? 'listed the MCP tools' : undefined });
    }
  }
  return boundHistory(turns, historyBudget(maxInputTokens)).map(t => t.role === 'user' ? vscode.LanguageModelChatMessage.User(t.text) : vscode.LanguageModelChatMessage.Assistant(t.text));
}

/** Attached references (files, MCP resources, selections) become context for the model. */
async function references(request: vscode.ChatRequest): Promise<vscode.LanguageModelChatMessage[]> {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const ref of request.references) {
    let text: string | undefined;
    let label = ref.id;
    const v = ref.value;
    if (typeof v === 'string') text = v;
    else if (v instanceof vscode.Uri) {
      label = v.toString();
      try { text = new TextDecoder().decode(await vscode.workspace.fs.readFile(v)); } catch { text = undefined; }
    } else if (v instanceof vscode.Location) {
      label = `${v.uri.toString()}:${v.range.start.line + 1}`;
      try { text = (await vscode.workspace.openTextDocument(v.uri)).getText(v.range); } catch { text = undefined; }
    }
    if (text !== undefined) out.push(vscode.LanguageModelChatMessage.User(`Attached context ${label}:\n${text.length > 100_000 ? text.slice(0, 100_000) + '…' : text}`));
  }
  return out;
}
