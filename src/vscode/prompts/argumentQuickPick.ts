/**
 * One argument step of a prompt, shown as a QuickPick so the server's suggestions
 * (`completion/complete`, debounced, earlier answers as `context.arguments`) can be picked while
 * free text stays possible. Title and description of the argument are shown, required arguments
 * refuse an empty answer, optional ones offer "Skip", and the Back button answers `'back'`.
 *
 * The step loop itself is `collectArguments` in the core; when the shared multi-step helper
 * (src/vscode/multiStepInput.ts) exists, this step can move onto it without touching the loop.
 */
import * as vscode from 'vscode';
import type { ServerConnection } from '../../core';
import { completionParams, type ArgumentStep, type StepAnswer } from '../../core/prompts';
import { plainText } from '../../core/text';

const shown = (s: string, maxLength = 200) => plainText(s, { singleLine: true, maxLength });

export interface ArgumentStepOptions {
  readonly conn: ServerConnection;
  readonly promptName: string;
  /** Shown in the title: the prompt's title or name. */
  readonly promptLabel: string;
  readonly debounceMs?: number;
  /** Where failed completion requests are reported (the server's log). */
  readonly log?: (message: string) => void;
}

interface ValueItem extends vscode.QuickPickItem {
  /** `typed`: whatever is in the input box at accept time; `skip`: leave the argument out. */
  readonly use: 'typed' | 'skip' | 'suggestion';
}

const MAX_SUGGESTIONS = 100;

export function askArgument(step: ArgumentStep, opts: ArgumentStepOptions): Promise<StepAnswer> {
  return new Promise<StepAnswer>(resolve => {
    const qp = vscode.window.createQuickPick<ValueItem>();
    const subscriptions: vscode.Disposable[] = [];
    let suggestions: readonly string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let inflight: AbortController | undefined;
    let seq = 0;
    let done = false;

    const finish = (answer: StepAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      inflight?.abort();
      for (const d of subscriptions) d.dispose();
      qp.dispose();
      resolve(answer);
    };

    // The server wrote the titles and the description: shown as plain single lines (no hidden text, no controls).
    const title = shown(step.title), label = shown(opts.promptLabel);
    const what = step.argument.description ? `${title} — ${shown(step.argument.description, 400)}` : title;
    const placeholder = step.required
      ? vscode.l10n.t('{0} (required)', what)
      : vscode.l10n.t('{0} (optional; pick Skip to leave it out)', what);
    qp.title = `${label} (${opts.conn.name}): ${title}`;
    qp.step = step.index + 1;
    qp.totalSteps = step.total;
    qp.placeholder = placeholder;
    qp.ignoreFocusOut = true;
    qp.buttons = step.index > 0 ? [vscode.QuickInputButtons.Back] : [];
    qp.value = step.initial ?? '';

    /** `keepActive`: suggestions arrived while the user may be arrowing through the list; keep their place. */
    const render = (keepActive = false) => {
      const active = keepActive ? qp.activeItems[0] : undefined;
      const value = qp.value;
      const items: ValueItem[] = [];
      if (value && !suggestions.includes(value)) items.push({ label: value, description: vscode.l10n.t('use this value'), use: 'typed', alwaysShow: true });
      if (!value && !step.required) items.push({ label: `$(debug-step-over) ${vscode.l10n.t('Skip')}`, description: vscode.l10n.t('leave "{0}" out', title), use: 'skip', alwaysShow: true });
      for (const s of suggestions) items.push({ label: s, use: 'suggestion', alwaysShow: true });
      qp.items = items;
      const again = active && items.find(i => i.use === active.use && (i.use !== 'suggestion' || i.label === active.label));
      // The workbench focuses the first row of new items by itself, and applies an explicit
      // `activeItems` a frame later: setting the first row again would undo a Down key pressed
      // in between (seen under load: Enter then took the typed text instead of the suggestion).
      if (again && again !== items[0]) qp.activeItems = [again];
    };

    const canComplete = !!opts.conn.capabilities?.completions;
    const complete = () => {
      if (!canComplete || done) return;
      const mine = ++seq;
      inflight?.abort();
      const abort = inflight = new AbortController();
      qp.busy = true;
      opts.conn.complete(completionParams(opts.promptName, step.argument.name, qp.value, step.earlier), { signal: abort.signal }).then(
        r => {
          if (mine !== seq || done) return;
          suggestions = r.completion.values.slice(0, MAX_SUGGESTIONS);
          render(true);
        },
        e => { if (mine === seq && !done) opts.log?.(`completion/complete for ${opts.promptName}.${step.argument.name} failed: ${e instanceof Error ? e.message : String(e)}`); },
      ).finally(() => { if (mine === seq && !done) qp.busy = false; });
    };

    subscriptions.push(
      qp.onDidChangeValue(() => {
        qp.placeholder = placeholder;
        render();
        clearTimeout(timer);
        timer = setTimeout(complete, opts.debounceMs ?? 150);
      }),
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        // The typed item is read from `qp.value`, not its label: the label may be a keystroke behind.
        const value = !item || item.use === 'typed' ? qp.value : item.use === 'skip' ? '' : item.label;
        if (!value && step.required) {
          qp.placeholder = vscode.l10n.t('"{0}" is required: type a value or pick a suggestion', title);
          return;
        }
        finish({ value });
      }),
      qp.onDidTriggerButton(b => { if (b === vscode.QuickInputButtons.Back) finish('back'); }),
      qp.onDidHide(() => finish(undefined)),
    );
    render();
    qp.show();
    complete();
  });
}
