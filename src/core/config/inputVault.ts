/**
 * Stored `${input:id}` values, each bound to the referrers it was given for (see inputBindings.ts).
 * Values live in the embedder's secret store under random keys; the index of bindings (no values)
 * lives in a plain key-value store. Several bindings may share one value (the user chose to reuse it).
 *
 * Values stored by id alone (before bindings existed: secret `mcpHost.input.<id>`, index
 * `mcpHost.inputIds`) are kept as unbound entries: never handed out silently, only offered to the
 * first referrer that asks, which adopts the value if the user picks it. Binding such a value to
 * whichever declaration asked first would hand it to a repository that asked before the user's own.
 */
import { randomUUID } from 'node:crypto';
import type { SecretStore } from '../auth/types';
import { bindingMatches, bindingOf, type InputBinding, type InputReferrer } from './inputBindings';

/** `vscode.Memento` fits. */
export interface IndexStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface Entry {
  readonly id: string;
  /** Secret store key of the value. */
  readonly key: string;
  /** Absent for a value stored before bindings existed. */
  readonly binding?: InputBinding;
}

/** A stored value the user may choose to reuse for a new referrer (the value itself is not exposed). */
export interface StoredInput {
  readonly key: string;
  /** Who the value was given for; absent for a value stored by id alone. */
  readonly bindings: readonly InputBinding[];
}

const INDEX_KEY = 'mcpHost.inputBindings';
const LEGACY_INDEX_KEY = 'mcpHost.inputIds';
const LEGACY_PREFIX = 'mcpHost.input.';
const VALUE_PREFIX = 'mcpHost.inputValue.';

export class InputVault {
  /** Writes to the index, serialised (read-modify-write of one list). */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly secrets: SecretStore, private readonly index: IndexStore) {}

  /** The value bound to exactly this referrer, if any. */
  async lookup(referrer: InputReferrer): Promise<string | undefined> {
    const entry = this.entries().find(e => e.id === referrer.id && e.binding && bindingMatches(e.binding, referrer));
    return entry && this.secrets.get(entry.key);
  }

  /** Values stored for `id` under other referrers (or by id alone), for an explicit reuse offer. */
  async offers(id: string): Promise<StoredInput[]> {
    const byKey = new Map<string, InputBinding[]>();
    for (const e of this.entries()) {
      if (e.id !== id) continue;
      const list = byKey.get(e.key) ?? [];
      if (e.binding) list.push(e.binding);
      byKey.set(e.key, list);
    }
    const out: StoredInput[] = [];
    for (const [key, bindings] of byKey) if (await this.secrets.get(key) !== undefined) out.push({ key, bindings });
    return out;
  }

  /** Stores a new value for these referrers (all of one id), replacing what they had. */
  async store(referrers: readonly InputReferrer[], value: string): Promise<void> {
    const key = VALUE_PREFIX + randomUUID();
    await this.secrets.store(key, value);
    await this.bind(referrers, key);
  }

  /** Binds an already stored value (an offer the user picked) to `referrer`; returns the value. */
  async reuse(key: string, referrer: InputReferrer): Promise<string | undefined> {
    const value = await this.secrets.get(key);
    if (value !== undefined) await this.bind([referrer], key);
    return value;
  }

  /** Every stored value (for redacting logs and exports). */
  async values(): Promise<string[]> {
    const keys = new Set(this.entries().map(e => e.key));
    const out: string[] = [];
    for (const key of keys) {
      const v = await this.secrets.get(key);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  /** Deletes every stored value; returns how many there were. */
  async clear(): Promise<number> {
    return this.update(async entries => {
      const keys = new Set(entries.map(e => e.key));
      for (const key of keys) await this.secrets.delete(key);
      return { entries: [], result: keys.size };
    });
  }

  /**
   * Forgets the values bound to referrers `matches` picks (a server that was uninstalled): their
   * bindings go, and a value no other binding refers to is deleted from the secret store. Values
   * stored by id alone are left (they belong to no one server). Returns how many bindings went.
   */
  async forget(matches: (binding: InputBinding) => boolean): Promise<number> {
    return this.update(async entries => {
      const next = entries.filter(e => !(e.binding && matches(e.binding)));
      for (const old of new Set(entries.map(e => e.key))) {
        if (!next.some(e => e.key === old)) await this.secrets.delete(old);
      }
      return { entries: next, result: entries.length - next.length };
    });
  }

  private bind(referrers: readonly InputReferrer[], key: string): Promise<void> {
    return this.update(async entries => {
      const next = entries.filter(e => !referrers.some(r => e.id === r.id && (e.binding ? bindingMatches(e.binding, r) : e.key === key)));
      for (const r of referrers) next.push({ id: r.id, key, binding: bindingOf(r) });
      // A value no binding refers to any more is deleted, not left behind in the secret store.
      for (const old of new Set(entries.map(e => e.key))) {
        if (old !== key && !next.some(e => e.key === old)) await this.secrets.delete(old);
      }
      return { entries: next, result: undefined };
    });
  }

  private entries(): Entry[] {
    const entries = this.index.get<Entry[]>(INDEX_KEY, []).filter(e => e && typeof e.id === 'string' && typeof e.key === 'string');
    for (const id of this.index.get<string[]>(LEGACY_INDEX_KEY, [])) {
      if (typeof id === 'string' && !entries.some(e => e.key === LEGACY_PREFIX + id)) entries.push({ id, key: LEGACY_PREFIX + id });
    }
    return entries;
  }

  private update<T>(change: (entries: Entry[]) => Promise<{ entries: Entry[]; result: T }>): Promise<T> {
    const run = this.writing.then(async () => {
      const { entries, result } = await change(this.entries());
      await this.index.update(INDEX_KEY, entries);
      // The legacy entries now live in the new index (or were deleted): one source of truth.
      await this.index.update(LEGACY_INDEX_KEY, undefined);
      return result;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }
}
