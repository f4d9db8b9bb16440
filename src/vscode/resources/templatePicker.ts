/**
 * One QuickPick per template variable: the server's `completion/complete` suggestions (debounced,
 * with the earlier answers as `context.arguments`), free text always accepted, Back button, step
 * count. It implements `AskVariable` from templateFill.ts, so the step loop stays UI-independent and
 * can move onto the shared multi-step input helper (src/vscode/multiStepInput.ts) once that exists.
 */
import * as vscode from 'vscode';
import type { ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../core';
import { BACK, completeVariable, mayBeEmpty, type AskVariable } from './templateFill';

const DEBOUNCE_MS = 150;

interface ValueItem extends vscode.QuickPickItem { readonly value: string }

export function quickPickAsk(conn: ServerConnection, template: ResourceTemplate): AskVariable {
  const title = template.title ?? template.name;
  return step => new Promise(resolve => {
    const qp = vscode.window.createQuickPick<ValueItem>();
    const disposables: vscode.Disposable[] = [qp];
    const name = step.variable.name;
    let suggestions: string[] = [];
    let hasMore = false;
    let timer: NodeJS.Timeout | undefined;
    let inflight: AbortController | undefined;
    let settled = false;
    const finish = (v: string | typeof BACK | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      inflight?.abort();
      for (const d of disposables) d.dispose();
      resolve(v);
    };

    const placeholder = vscode.l10n.t('Value for {0} in {1} — type any value or pick a suggestion', `{${name}}`, template.uriTemplate);
    qp.title = vscode.l10n.t('{0}: {1}', title, name);
    qp.step = step.index + 1;
    qp.totalSteps = step.total;
    qp.placeholder = placeholder;
    qp.value = step.value;
    qp.ignoreFocusOut = true;
    qp.buttons = step.index > 0 ? [vscode.QuickInputButtons.Back] : [];

    const render = () => {
      const typed = qp.value;
      const items: ValueItem[] = [];
      if (typed && !suggestions.includes(typed)) items.push({ label: typed, description: vscode.l10n.t('use this value'), value: typed, alwaysShow: true });
      for (const v of suggestions) items.push({ label: v, value: v, alwaysShow: true });
      qp.items = items;
      qp.title = hasMore ? vscode.l10n.t('{0}: {1} (more suggestions exist; type to narrow them)', title, name) : vscode.l10n.t('{0}: {1}', title, name);
    };
    const complete = (delay: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        inflight?.abort();
        const ac = inflight = new AbortController();
        qp.busy = true;
        void completeVariable(conn, template.uriTemplate, name, qp.value, step.previous, ac.signal).then(r => {
          if (ac !== inflight || settled) return;
          qp.busy = false;
          suggestions = r.values;
          hasMore = r.hasMore;
          render();
        });
      }, delay);
    };

    disposables.push(
      qp.onDidChangeValue(() => { render(); complete(DEBOUNCE_MS); }),
      qp.onDidAccept(() => {
        const value = qp.selectedItems[0]?.value ?? qp.activeItems[0]?.value ?? qp.value;
        if (value === '' && !mayBeEmpty(step.variable)) {
          qp.placeholder = vscode.l10n.t('{0} needs a value — type one or pick a suggestion', `{${name}}`);
          return;
        }
        finish(value);
      }),
      qp.onDidTriggerButton(b => { if (b === vscode.QuickInputButtons.Back) finish(BACK); }),
      qp.onDidHide(() => finish(undefined)),
    );
    render();
    qp.show();
    complete(0);
  });
}
