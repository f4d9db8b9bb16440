/**
 * `${input:id}` values: asked with an InputBox (masked for passwords), kept in SecretStorage, never
 * written back to settings or logs. A value is bound to the declaration and field it was given for
 * (core `InputVault`); any other referrer is asked again, told who asks and where the value goes,
 * and may pick a value stored for another server explicitly.
 */
import * as vscode from 'vscode';
import { InputVault, type InputBinding, type InputReferrer, type InputRequest, type InputScope, type StoredInput } from '../core';
import { readInputs } from './config';
import { InputFlowAction, MultiStepInput, type InputStep } from './multiStepInput';
import { pickText } from './pickText';
import { workspaceIdentity } from './workspaceIdentity';

/** A request with its declaration's scope; the store adds which workspace that scope means. */
export type ScopedInputRequest = InputRequest & { readonly scope: InputScope };

type OfferItem = vscode.QuickPickItem & { readonly key?: string };

export class InputStore {
  private readonly vault: InputVault;
  /** Lookups in flight per referrer, so two starts of one server ask once. */
  private readonly pending = new Map<string, Promise<string | undefined>>();
  /** One prompt at a time: showing a second QuickInput would hide (cancel) the first. */
  private prompting: Promise<unknown> = Promise.resolve();
  /** Values stored so far, so logs can be redacted synchronously. */
  private cache: string[] = [];

  constructor(secrets: vscode.SecretStorage, state: vscode.Memento) {
    this.vault = new InputVault(secrets, state);
    void this.values();
  }

  /** Every stored value known so far (for redacting logs); never shown anywhere. */
  knownValues(): string[] { return this.cache; }

  /** Values currently stored (for redaction). */
  async values(): Promise<string[]> {
    this.cache = await this.vault.values();
    return this.cache;
  }

  resolve(request: ScopedInputRequest): Promise<string | undefined> {
    const referrer = referrerOf(request);
    const key = JSON.stringify(referrer);
    let p = this.pending.get(key);
    if (!p) {
      p = this.lookupOrAsk(referrer).finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  /** Stores a value without asking, bound to the fields that reference it (Add Server and Import collect secrets up front). */
  async store(requests: readonly ScopedInputRequest[], value: string): Promise<void> {
    if (!requests.length) return;
    this.remember(value);
    await this.vault.store(requests.map(referrerOf), value);
    await this.values();
  }

  /**
   * Forgets the values given for `server` declared at `scope` (in this workspace, for a workspace
   * scope); with `folder`, only those given to the code of that working folder (one bundle install).
   */
  async forgetServer(server: string, scope: InputScope, folder?: string): Promise<number> {
    const workspace = scope === 'user' ? undefined : workspaceIdentity();
    const n = await this.vault.forget(b => b.server === server && b.scope === scope && (scope === 'user' || b.workspace === workspace)
      && (folder === undefined || b.target?.folder === folder));
    await this.values();
    return n;
  }

  async clear(): Promise<number> {
    const n = await this.vault.clear();
    this.cache = [];
    return n;
  }

  private async lookupOrAsk(referrer: InputReferrer): Promise<string | undefined> {
    const stored = await this.vault.lookup(referrer);
    if (stored !== undefined) { this.remember(stored); return stored; }
    const asked = this.prompting.then(() => this.ask(referrer));
    this.prompting = asked.catch(() => undefined);
    return asked;
  }

  private async ask(referrer: InputReferrer): Promise<string | undefined> {
    const offers = await this.vault.offers(referrer.id);
    const def = readInputs().find(i => i.id === referrer.id);
    // The names, the description and the options come from a declaration (a cloned repository, a link): one
    // clean line each, so no hidden or reordered text, no drawn icon and no padding pushes "For …" out of sight.
    const title = vscode.l10n.t('MCP server "{0}" ({1}) asks for {2}', pickText(referrer.server, 100), scopeLabel(referrer.scope), pickText(`\${input:${referrer.id}}`, 120));
    const description = def?.description !== undefined ? pickText(def.description, 200) : undefined;
    const totalSteps = offers.length ? 2 : 1;
    let reuse: string | undefined;
    let value: string | undefined;

    const enterValue: InputStep = async input => {
      const where = vscode.l10n.t('For {0}.', pickText(whereText(referrer), 300));
      if (def?.type === 'pickString' && def.options?.length) {
        const picked = await input.showQuickPick({ title, step: totalSteps, totalSteps, placeholder: `${description ?? pickText(referrer.id, 120)} — ${where}`, items: def.options.map(option => ({ label: pickText(option, 200), option })) });
        if (!('option' in picked)) throw InputFlowAction.cancel;
        value = picked.option;
        return;
      }
      const r = await input.showInputBox({
        title, step: totalSteps, totalSteps,
        prompt: `${description ?? vscode.l10n.t('Value for {0} (declare it in "mcpHost.inputs" to describe it)', pickText(`\${input:${referrer.id}}`, 120))} — ${where}`,
        value: def?.default ?? '',
        password: def?.password ?? /key|token|secret|password/i.test(referrer.id),
        validate: () => undefined,
      });
      if (typeof r === 'string') value = r;
    };

    // The safe choice comes first: a stray Enter asks for a new value instead of handing over a stored one.
    const chooseOffer: InputStep = async input => {
      const fresh: OfferItem = { label: vscode.l10n.t('Enter a new value') };
      const items: OfferItem[] = [fresh, ...offers.map(offerItem)];
      const picked = await input.showQuickPick({
        title, step: 1, totalSteps, items, activeItem: fresh, matchOnDescription: true,
        placeholder: vscode.l10n.t('For {0}. A value is stored for another use: reuse it only if you trust this server with it.', whereText(referrer)),
      });
      reuse = (picked as OfferItem).key;
      value = undefined;
      return reuse ? undefined : enterValue;
    };

    const done = await MultiStepInput.run(offers.length ? chooseOffer : enterValue);
    if (!done) return undefined;
    if (reuse) {
      const reused = await this.vault.reuse(reuse, referrer);
      if (reused !== undefined) this.remember(reused);
      return reused;
    }
    if (value === undefined) return undefined;
    await this.store([referrer], value);
    return value;
  }

  private remember(value: string): void {
    if (!this.cache.includes(value)) this.cache = [...this.cache, value];
  }
}

function referrerOf(request: ScopedInputRequest | InputReferrer): InputReferrer {
  const { id, server, field, target, scope } = request;
  return { id, server, field, ...(target ? { target: { kind: target.kind, value: target.value, ...(target.folder !== undefined ? { folder: target.folder } : {}) } } : {}), scope, ...(scope === 'user' ? {} : { workspace: workspaceIdentity() }) };
}

export { workspaceIdentity };

function offerItem(offer: StoredInput): OfferItem {
  const [first, ...more] = offer.bindings;
  if (!first) return { key: offer.key, label: vscode.l10n.t('Use the value stored earlier'), description: vscode.l10n.t('stored before values were bound to servers') };
  return {
    key: offer.key,
    label: vscode.l10n.t('Use the value stored for "{0}" ({1})', first.server, scopeLabel(first.scope)),
    description: more.length ? vscode.l10n.t('{0} and {1} more', whereText(first), more.length) : whereText(first),
  };
}

function scopeLabel(scope: InputScope): string {
  switch (scope) {
    case 'user': return vscode.l10n.t('user settings');
    case 'workspace': return vscode.l10n.t('workspace settings');
    case 'folder': return vscode.l10n.t('folder settings');
  }
}

/** `headers.Authorization, sent to https://api.example.com` — the field and where the value goes. */
function whereText(b: Pick<InputBinding, 'field' | 'target'>): string {
  if (b.target?.kind === 'origin') return vscode.l10n.t('{0}, sent to {1}', b.field, b.target.value);
  if (b.target?.kind === 'command') return vscode.l10n.t('{0}, passed to the command {1}', b.field, b.target.value);
  return b.field;
}
