/**
 * The QuickInput a multi-step flow shows right now, for MCP Host's own integration tests: they cannot
 * type into the workbench's widget from the extension host, so they set `value`/`selectedItems` on it
 * and accept with `workbench.action.acceptSelectedQuickOpenItem`. Only test builds record anything
 * (multiStepInput.ts calls in under MCP_HOST_TEST_BUILD), so the production bundle drops this module.
 */
import * as vscode from 'vscode';

let active: vscode.QuickInput | undefined;
// Created on first use: a module-level `new` would count as a side effect and keep this file in every bundle.
let shown: vscode.EventEmitter<vscode.QuickInput> | undefined;

export const quickInputProbe = {
  get active(): vscode.QuickInput | undefined { return active; },
  onDidShow: ((listener, thisArgs, disposables) => (shown ??= new vscode.EventEmitter()).event(listener, thisArgs, disposables)) as vscode.Event<vscode.QuickInput>,
};

export function noteShown(input: vscode.QuickInput): void {
  active = input;
  shown?.fire(input);
}

export function noteDisposed(input: vscode.QuickInput | undefined): void {
  if (active === input) active = undefined;
}
