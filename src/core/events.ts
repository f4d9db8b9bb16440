/**
 * Events and disposables shaped exactly like `vscode.Event` / `vscode.Disposable`, so the
 * VS Code adapters can subscribe to core events without glue (pattern of vscode-jsonrpc).
 */

export interface IDisposable {
  dispose(): void;
}

/** A function to subscribe to an event; same call signature as `vscode.Event<T>`. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

export namespace Event {
  export const None: Event<never> = () => ({ dispose() {} });
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return { dispose: () => { if (!done) { done = true; fn(); } } };
}

export class Emitter<T> implements IDisposable {
  private listeners = new Set<(e: T) => unknown>();
  private disposed = false;

  /** Listeners that throw are isolated: one bad subscriber never breaks the others. */
  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    if (this.disposed) return { dispose() {} };
    const bound = thisArgs ? listener.bind(thisArgs) : listener;
    this.listeners.add(bound);
    const d = toDisposable(() => this.listeners.delete(bound));
    disposables?.push(d);
    return d;
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try { l(e); } catch (err) { this.onListenerError(err); }
    }
  }

  get hasListeners(): boolean { return this.listeners.size > 0; }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

/** Owns a set of disposables; disposing the store disposes them in reverse order. */
export class DisposableStore implements IDisposable {
  private items: IDisposable[] = [];
  private disposed = false;

  add<T extends IDisposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  clear(): void {
    const items = this.items.reverse();
    this.items = [];
    for (const d of items) {
      try { d.dispose(); } catch { /* disposal must not stop the others */ }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }
}

/** Base class with `_register()` so every object owns its listeners (one owner per lifetime). */
export abstract class Disposable implements IDisposable {
  protected readonly _store = new DisposableStore();
  protected _register<T extends IDisposable>(d: T): T { return this._store.add(d); }
  dispose(): void { this._store.dispose(); }
}
