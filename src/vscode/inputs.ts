/**
 * `${input:id}` values: asked once with an InputBox (masked for passwords), kept in SecretStorage,
 * never written back to settings or logs.
 */
import * as vscode from 'vscode';
import { readInputs } from './config';

const KEY_PREFIX = 'mcpHost.input.';
const INDEX_KEY = 'mcpHost.inputIds';

export class InputStore {
  /** Prompts in flight, so two servers needing the same input ask once. */
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private readonly known = new Set<string>();

  constructor(private readonly secrets: vscode.SecretStorage, private readonly state: vscode.Memento) {
    for (const id of state.get<string[]>(INDEX_KEY, [])) this.known.add(id);
  }

  /** Values currently stored (for redaction). */
  async values(): Promise<string[]> {
    const out: string[] = [];
    for (const id of this.known) {
      const v = await this.secrets.get(KEY_PREFIX + id);
      if (v) out.push(v);
    }
    return out;
  }

  resolve(id: string, server: string): Promise<string | undefined> {
    let p = this.pending.get(id);
    if (!p) {
      p = this.lookupOrAsk(id, server).finally(() => this.pending.delete(id));
      this.pending.set(id, p);
    }
    return p;
  }

  private async lookupOrAsk(id: string, server: string): Promise<string | undefined> {
    const stored = await this.secrets.get(KEY_PREFIX + id);
    if (stored !== undefined) return stored;
    const def = readInputs().find(i => i.id === id);
    let value: string | undefined;
    if (def?.type === 'pickString' && def.options?.length) {
      value = await vscode.window.showQuickPick([...def.options], { title: vscode.l10n.t('MCP server "{0}" needs a value', server), placeHolder: def.description ?? id, ignoreFocusOut: true });
    } else {
      value = await vscode.window.showInputBox({
        title: vscode.l10n.t('MCP server "{0}" needs a value', server),
        prompt: def?.description ?? vscode.l10n.t('Value for ${input:{0}} (declare it in "mcpHost.inputs" to describe it)', id),
        password: def?.password ?? /key|token|secret|password/i.test(id),
        value: def?.default,
        ignoreFocusOut: true,
      });
    }
    if (value === undefined) return undefined;
    await this.secrets.store(KEY_PREFIX + id, value);
    this.known.add(id);
    await this.state.update(INDEX_KEY, [...this.known]);
    return value;
  }

  async clear(): Promise<number> {
    const ids = [...this.known];
    for (const id of ids) await this.secrets.delete(KEY_PREFIX + id);
    this.known.clear();
    await this.state.update(INDEX_KEY, []);
    return ids.length;
  }
}
