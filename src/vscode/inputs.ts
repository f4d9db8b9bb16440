/**
 * `${input:id}` values: asked once with an InputBox (masked for passwords), kept in SecretStorage,
 * never written back to settings or logs.
 */
import * as vscode from 'vscode';
import { readInputs } from './config';
import { MultiStepInput } from './multiStepInput';

const KEY_PREFIX = 'mcpHost.input.';
const INDEX_KEY = 'mcpHost.inputIds';

export class InputStore {
  /** Prompts in flight, so two servers needing the same input ask once. */
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private readonly known = new Set<string>();
  /** Values seen in this session, so logs can be redacted synchronously. */
  private readonly cache = new Map<string, string>();

  constructor(private readonly secrets: vscode.SecretStorage, private readonly state: vscode.Memento) {
    for (const id of state.get<string[]>(INDEX_KEY, [])) this.known.add(id);
    void this.values();
  }

  /** Every stored value known so far (for redacting logs); never shown anywhere. */
  knownValues(): string[] { return [...this.cache.values()]; }

  /** Values currently stored (for redaction). */
  async values(): Promise<string[]> {
    const out: string[] = [];
    for (const id of this.known) {
      const v = await this.secrets.get(KEY_PREFIX + id);
      if (v) { out.push(v); this.cache.set(id, v); }
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
    if (stored !== undefined) { this.cache.set(id, stored); return stored; }
    const def = readInputs().find(i => i.id === id);
    let value: string | undefined;
    if (def?.type === 'pickString' && def.options?.length) {
      value = await vscode.window.showQuickPick([...def.options], { title: vscode.l10n.t('MCP server "{0}" needs a value', server), placeHolder: def.description ?? id, ignoreFocusOut: true });
    } else {
      // One InputBox through the shared multi-step helper (so the flow behaves like our other inputs).
      let answer: string | undefined;
      await MultiStepInput.run(async input => {
        const r = await input.showInputBox({
          title: vscode.l10n.t('MCP server "{0}" needs a value', server),
          step: 1, totalSteps: 1,
          prompt: def?.description ?? vscode.l10n.t('Value for {0} (declare it in "mcpHost.inputs" to describe it)', `\${input:${id}}`),
          value: def?.default ?? '',
          password: def?.password ?? /key|token|secret|password/i.test(id),
          validate: () => undefined,
        });
        if (typeof r === 'string') answer = r;
      });
      value = answer;
    }
    if (value === undefined) return undefined;
    this.cache.set(id, value);
    await this.secrets.store(KEY_PREFIX + id, value);
    this.known.add(id);
    await this.state.update(INDEX_KEY, [...this.known]);
    return value;
  }

  /** Stores a value for `${input:id}` without asking (Add Server and Import collect secrets up front). */
  async store(id: string, value: string): Promise<void> {
    await this.secrets.store(KEY_PREFIX + id, value);
    this.known.add(id);
    await this.state.update(INDEX_KEY, [...this.known]);
    await this.values(); // refreshes what redaction knows
  }

  async clear(): Promise<number> {
    const ids = [...this.known];
    for (const id of ids) await this.secrets.delete(KEY_PREFIX + id);
    this.known.clear();
    this.cache.clear();
    await this.state.update(INDEX_KEY, []);
    return ids.length;
  }
}
