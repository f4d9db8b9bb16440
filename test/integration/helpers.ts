// Shared helpers for integration tests (run inside a real VS Code extension host).
import * as vscode from 'vscode';

export const EXTENSION_ID = 'mcp-host.mcp-host';
/** The test-fixture extension in test/fixtures/lm-extension. */
export const LM_FIXTURE_ID = 'mcp-host-test.scripted-lm';
export const SCRIPTED_VENDOR = 'scripted';
export const SCRIPTED_MODEL_IDS = ['scripted-fast', 'scripted-smart', 'scripted-notools'] as const;
export type ScriptedModelId = (typeof SCRIPTED_MODEL_IDS)[number];

/** One piece of a scripted model answer. */
export type ScriptedPart =
  | string
  | { text: string }
  | { toolCall: { name: string; input?: object; callId?: string; inputFromLastResult?: Record<string, string> } }
  | { delayMs: number }
  | { error: string };
/** The answer to one request: one part, a list of parts, or parts reserved for one model id. */
export type ScriptedResponse = ScriptedPart | ScriptedPart[] | { model: ScriptedModelId | string; parts: ScriptedPart[] };

export type RecordedPart =
  | { type: 'text'; value: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; isError?: boolean; content: RecordedPart[] }
  | { type: 'data'; mimeType: string; text?: string; base64?: string }
  | { type: 'unknown'; value: unknown };

/** A request as the scripted model received it (plain JSON). */
export interface RecordedRequest {
  model: { id: string; family: string; vendor: string };
  messages: { role: 'user' | 'assistant' | 'system' | string; name?: string; content: RecordedPart[] }[];
  options: {
    modelOptions?: Record<string, unknown>;
    toolMode?: vscode.LanguageModelChatToolMode;
    tools: { name: string; description: string; inputSchema?: unknown }[];
  };
  answeredWith: 'script' | 'echo' | 'error';
}

/** Drives the scripted model from test/fixtures/lm-extension. */
export const scriptedLm = {
  vendor: SCRIPTED_VENDOR,

  /** Makes sure the fixture extension is active (it activates on startup; this just waits for it). */
  async ready(): Promise<void> {
    const ext = vscode.extensions.getExtension(LM_FIXTURE_ID);
    if (!ext) throw new Error(`fixture extension ${LM_FIXTURE_ID} is not loaded (the test rig installs it from test/fixtures/lm-extension)`);
    await ext.activate();
  },

  /**
   * Queues answers, one per future request, in order:
   *   script('plain text')                         one answer with one text part
   *   script(['Hello ', 'world'])                   one answer streamed in two parts
   *   script([{ toolCall: { name: 'srv_echo', input: { text: 'hi' } } }], 'done')  tool call, then final text
   *   script({ model: 'scripted-smart', parts: ['only for smart'] })
   * Requests with nothing queued get `echo: <last user text>`.
   */
  async script(...responses: ScriptedResponse[]): Promise<{ queued: number }> {
    await this.ready();
    return vscode.commands.executeCommand('mcpHostTest.lm.script', responses);
  },

  /** Everything the model was asked so far (since the last reset). */
  async requests(): Promise<RecordedRequest[]> {
    await this.ready();
    return vscode.commands.executeCommand('mcpHostTest.lm.requests');
  },

  /** Clears queued answers and recorded requests; call it in beforeEach. */
  async reset(): Promise<void> {
    await this.ready();
    await vscode.commands.executeCommand('mcpHostTest.lm.reset');
  },

  async models(): Promise<vscode.LanguageModelChat[]> {
    await this.ready();
    return vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR });
  },

  async model(id: ScriptedModelId = 'scripted-fast'): Promise<vscode.LanguageModelChat> {
    await this.ready();
    const [model] = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR, id });
    if (!model) throw new Error(`scripted model ${id} not available`);
    return model;
  },
};

/** Activates MCP Host and returns its extension object. */
export async function activateMcpHost<T = unknown>(): Promise<vscode.Extension<T>> {
  const ext = vscode.extensions.getExtension<T>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  await ext.activate();
  return ext;
}

/** Concatenated text of a model response. */
export async function responseText(response: vscode.LanguageModelChatResponse): Promise<string> {
  let text = '';
  for await (const chunk of response.text) text += chunk;
  return text;
}

/** All parts of a model response (text and tool calls). */
export async function responseParts(response: vscode.LanguageModelChatResponse): Promise<unknown[]> {
  const parts: unknown[] = [];
  for await (const part of response.stream) parts.push(part);
  return parts;
}

/** The (temporary copy of the) fixture workspace folder the run opened. */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder open');
  return folder.uri;
}

/**
 * Changes a setting for the rest of the run (user settings by default) and resolves once VS Code has
 * applied it. Restore it yourself in an after hook (pass undefined to remove it).
 */
export async function setSetting(key: string, value: unknown, target = vscode.ConfigurationTarget.Global): Promise<void> {
  const dot = key.lastIndexOf('.');
  const section = key.slice(0, dot);
  const name = key.slice(dot + 1);
  let sub: vscode.Disposable | undefined;
  const changed = new Promise<void>((resolve) => {
    sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(key)) resolve();
    });
  });
  try {
    const before = vscode.workspace.getConfiguration(section).inspect(name);
    await vscode.workspace.getConfiguration(section).update(name, value, target);
    const after = vscode.workspace.getConfiguration(section).inspect(name);
    // No event fires when the value did not actually change.
    if (JSON.stringify(before) !== JSON.stringify(after)) await changed;
  } finally {
    sub?.dispose();
  }
}

/** Polls until `check` returns a truthy value (or throws after timeoutMs). */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Checks exactly `wanted` in a multi-select QuickPick and waits until the workbench reports that
 * selection back. Setting `selectedItems` from the extension host is asynchronous: the workbench
 * echoes every selection it applies (also the initial one), and an echo still in flight would
 * overwrite a newer local value; the echo of `wanted` is the last one, so after it the pick holds
 * what the test chose.
 */
export async function selectItems<T extends vscode.QuickPickItem>(qp: vscode.QuickPick<T>, wanted: readonly T[], timeoutMs = 10_000): Promise<void> {
  const same = (items: readonly T[]) => items.length === wanted.length && wanted.every(w => items.includes(w));
  // Unchanged: the workbench applies nothing and echoes nothing (any echo in flight carries this same selection).
  if (same(qp.selectedItems)) return;
  let sub: vscode.Disposable | undefined;
  const echoed = new Promise<void>(resolve => { sub = qp.onDidChangeSelection(items => { if (same(items)) resolve(); }); });
  try {
    qp.selectedItems = wanted;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([echoed, new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the workbench never reported the selection ${wanted.map(w => w.label).join(', ')} (has ${qp.selectedItems.map(i => i.label).join(', ')})`)), timeoutMs);
    })]).finally(() => clearTimeout(timer));
  } finally {
    sub?.dispose();
  }
}

/** Runs a language-model tool as agent mode would (no chat invocation token) and returns its text parts joined. */
export async function invokeToolText(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return r.content.map(p => (p as vscode.LanguageModelTextPart).value).join('');
}
