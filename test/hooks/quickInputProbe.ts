/**
 * The QuickInput MCP Host shows right now, for its own integration tests: they cannot type into the
 * workbench's widget from the extension host, so they set `value`/`selectedItems` on it and accept with
 * `workbench.action.acceptSelectedQuickOpenItem`.
 *
 * The product has no part in this: the test build's host bundle (host.ts here) wraps
 * `createQuickPick`/`createInputBox` of the `vscode` API object before the product's host runs. VS Code hands
 * each extension an API object of its own (one per extension, shared by all its modules and bundles),
 * so only MCP Host's inputs are seen, every one of them, from its `show()` until it hides or is disposed.
 * `showQuickPick` is wrapped too: its items and options, as the product passed them, are kept while it is open.
 */
import * as vscode from 'vscode';

/** A `showQuickPick` call of the product: what it showed, while it is open. */
export interface ShownQuickPick { readonly items: readonly vscode.QuickPickItem[]; readonly options: vscode.QuickPickOptions | undefined }

let active: vscode.QuickInput | undefined;
let activeList: ShownQuickPick | undefined;
const shown = new vscode.EventEmitter<vscode.QuickInput>();
let installed = false;

export const quickInputProbe = {
  get active(): vscode.QuickInput | undefined { return active; },
  /** The open `showQuickPick` list, if any. */
  get activeList(): ShownQuickPick | undefined { return activeList; },
  onDidShow: shown.event,
};

/** Wraps this extension's `vscode.window.createQuickPick`/`createInputBox` (once per extension host). */
export function installQuickInputProbe(): void {
  if (installed) return;
  installed = true;
  // Assigned on the API object itself (namespace functions are read-only to TypeScript, not at run time).
  const window = vscode.window as { -readonly [K in 'createQuickPick' | 'createInputBox' | 'showQuickPick']: (typeof vscode.window)[K] };
  const createQuickPick = window.createQuickPick;
  const createInputBox = window.createInputBox;
  const showQuickPick = window.showQuickPick as (items: unknown, options?: vscode.QuickPickOptions, token?: vscode.CancellationToken) => Thenable<unknown>;
  window.createQuickPick = <T extends vscode.QuickPickItem>() => observe(createQuickPick.call(vscode.window) as vscode.QuickPick<T>);
  window.createInputBox = () => observe(createInputBox.call(vscode.window));
  window.showQuickPick = ((items: unknown, options?: vscode.QuickPickOptions, token?: vscode.CancellationToken) => {
    const entry = { items: [] as vscode.QuickPickItem[], options };
    void Promise.resolve(items as readonly (string | vscode.QuickPickItem)[] | Thenable<readonly (string | vscode.QuickPickItem)[]>).then(list => {
      entry.items = list.map(i => typeof i === 'string' ? { label: i } : i);
      activeList = entry;
    });
    const result = showQuickPick.call(vscode.window, items, options, token);
    void Promise.resolve(result).finally(() => { if (activeList === entry) activeList = undefined; });
    return result;
  }) as typeof vscode.window.showQuickPick;
}

function observe<T extends vscode.QuickInput>(input: T): T {
  const show = input.show.bind(input);
  const dispose = input.dispose.bind(input);
  input.show = () => {
    show();
    active = input;
    shown.fire(input);
  };
  input.dispose = () => {
    dispose();
    if (active === input) active = undefined;
  };
  // A prompt that is gone must not stay "active" for the next test; disposing the input disposes this listener.
  input.onDidHide(() => { if (active === input) active = undefined; });
  return input;
}
