/**
 * Commands for prompts: `mcpHost.runPrompt` (palette, Servers view, `executeCommand`) and one
 * command per prompt, `mcpHost.prompt.<server>.<prompt>`, registered while the prompt exists so it
 * can be bound to a key (`"args"` fill the prompt's arguments) and called by other extensions.
 * The per-prompt ids follow `prompts/list_changed`; they are not in package.json (VS Code cannot
 * contribute commands that only exist at run time), so they do not show in the Command Palette.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core';
import { parsePromptCommand, promptCommandIds, PromptError, type PromptRef } from '../../core/prompts';
import { runPrompt, type PromptRunnerDeps, type RunPromptOutcome, type RunPromptRequest } from './runPrompt';
import { showError } from '../notify';

export const RUN_PROMPT_COMMAND = 'mcpHost.runPrompt';

export function registerPromptCommands(deps: PromptRunnerDeps): vscode.Disposable {
  const run = (req: RunPromptRequest) => runPrompt(deps, req);
  const registry = new PromptCommandRegistry(deps.host, ref => args => run({ server: ref().server, prompt: ref().name, args: isRecord(args) ? args : undefined }));
  const main = vscode.commands.registerCommand(RUN_PROMPT_COMMAND, (arg?: unknown) => {
    const req = toRequest(deps.host, arg);
    if (!(req instanceof PromptError)) return run(req);
    void showError(req.message);
    return Promise.resolve<RunPromptOutcome>({ status: 'error', code: req.code, message: req.message });
  });
  return vscode.Disposable.from(main, registry);
}

/** Keeps one registered command per prompt in sync with the host's prompt lists. */
export class PromptCommandRegistry implements vscode.Disposable {
  private readonly commands = new Map<string, { ref: PromptRef; registration: vscode.Disposable }>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly host: McpHost, private readonly handler: (ref: () => PromptRef) => (args?: unknown) => unknown) {
    this.subscriptions.push(
      toVs(host.onDidChangeCatalog(e => { if (e.kind === 'prompts') this.sync(); })),
      toVs(host.onDidChangeServers(() => this.sync())),
    );
    this.sync();
  }

  get ids(): string[] { return [...this.commands.keys()]; }

  sync(): void {
    const wanted = promptCommandIds(this.host.prompts.map(p => ({ server: p.server, name: p.item.name })));
    for (const [id, entry] of this.commands) {
      if (!wanted.has(id)) { entry.registration.dispose(); this.commands.delete(id); }
    }
    for (const [id, ref] of wanted) {
      const existing = this.commands.get(id);
      if (existing) { existing.ref = ref; continue; }
      const entry = { ref, registration: undefined as unknown as vscode.Disposable };
      // The handler reads the entry at call time: an id can move to another prompt after a collision resolves.
      entry.registration = vscode.commands.registerCommand(id, this.handler(() => entry.ref));
      this.commands.set(id, entry);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const e of this.commands.values()) e.registration.dispose();
    this.commands.clear();
  }
}

/**
 * What `mcpHost.runPrompt` accepts: nothing (pick from the list), a prompt node of the Servers view,
 * a `RunPromptRequest` object, or `/prompt`-style text such as `"everything.args-prompt city=Paris"`.
 */
function toRequest(host: McpHost, arg: unknown): RunPromptRequest | PromptError {
  if (arg === undefined || arg === null) return {};
  if (typeof arg === 'string') {
    try {
      const parsed = parsePromptCommand(arg, host.prompts);
      return { server: parsed.server, prompt: parsed.prompt, args: parsed.args };
    } catch (e) {
      return e instanceof PromptError ? e : new PromptError('unknown-prompt', String(e));
    }
  }
  if (!isRecord(arg)) return {};
  if (arg.kind === 'prompt' && typeof arg.server === 'string' && typeof arg.name === 'string') return { server: arg.server, prompt: arg.name };
  const str = (v: unknown) => typeof v === 'string' ? v : undefined;
  return {
    server: str(arg.server), prompt: str(arg.prompt), filter: str(arg.filter),
    args: isRecord(arg.args) ? arg.args : undefined, defaults: isRecord(arg.defaults) ? arg.defaults : undefined,
    openIn: arg.openIn === 'chat' || arg.openIn === 'editor' ? arg.openIn : undefined,
    ask: typeof arg.ask === 'boolean' ? arg.ask : undefined,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> { return !!v && typeof v === 'object' && !Array.isArray(v); }

function toVs(d: { dispose(): void }): vscode.Disposable { return new vscode.Disposable(() => d.dispose()); }
