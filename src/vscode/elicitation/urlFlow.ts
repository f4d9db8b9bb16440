/**
 * URL-mode steps: consent to open one link (full URL shown, domain named in the choice, look-alike
 * warnings), and for -32042 the "retry the original request" step that continues by itself once the
 * server reports completion. Nothing here fetches the URL; it is opened only after the user says so.
 */
import * as vscode from 'vscode';
import type { ServerRef, UrlReview } from '../../core';
import { InputFlowAction, type InputStep } from '../multiStepInput';
import { hostLabel } from '../safeUrl';
import { oneLine, serverLabel } from './labels';

export type UrlChoice = 'opened' | 'copied' | 'declined' | 'cancelled';

export interface UrlStepRequest {
  readonly server: ServerRef;
  readonly message: string;
  readonly review: UrlReview;
  readonly step: number;
  readonly totalSteps: number;
  /** Opens exactly this URL outside VS Code; false when it was not opened. */
  readonly openExternal: (url: string) => Thenable<boolean>;
}

type UrlItem = vscode.QuickPickItem & { readonly run?: UrlChoice | 'info' };

/** A step asking whether to open `review.href`; `onChoice` receives the decision before the step ends. */
export function urlConsentStep(req: UrlStepRequest, onChoice: (choice: UrlChoice) => void, next?: InputStep): InputStep {
  return async input => {
    const { review } = req;
    const server = serverLabel(req.server);
    const domain = hostLabel(review);
    const open: UrlItem = {
      label: `$(link-external) ${vscode.l10n.t('Open {0}', domain)}`,
      description: vscode.l10n.t('in your browser'),
      detail: review.href,
      run: 'opened',
    };
    const items: UrlItem[] = [];
    if (review.warnings.length) {
      items.push({ label: vscode.l10n.t('Check this link before opening it'), kind: vscode.QuickPickItemKind.Separator });
      for (const w of review.warnings) items.push({ label: `$(warning) ${w.message}`, run: 'info' });
      items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    }
    // The request is unsolicited: a stray Enter must not open the link, so "Cancel" is the active item.
    const cancel: UrlItem = { label: `$(close) ${vscode.l10n.t('Cancel')}`, description: vscode.l10n.t('dismiss without deciding'), run: 'cancelled' };
    items.push(
      open,
      { label: `$(copy) ${vscode.l10n.t('Copy Link')}`, description: vscode.l10n.t('open it yourself'), detail: review.href, run: 'copied' },
      { label: `$(circle-slash) ${vscode.l10n.t('Decline')}`, description: vscode.l10n.t('tell "{0}" you will not open it', server), run: 'declined' },
      cancel,
    );
    const message = oneLine(req.message);
    const picked = await input.showQuickPick<UrlItem>({
      title: message ? vscode.l10n.t('MCP server "{0}" asks you to open a link: {1}', server, message) : vscode.l10n.t('MCP server "{0}" asks you to open a link', server),
      step: req.step,
      totalSteps: req.totalSteps,
      placeholder: vscode.l10n.t('The link goes to {0}. Open it only if you trust this site.', domain),
      items,
      activeItem: cancel,
      matchOnDetail: true,
    });
    if (!('label' in picked)) throw InputFlowAction.cancel;
    switch (picked.run) {
      case 'info': throw InputFlowAction.resume; // a warning line: show the step again
      case 'opened':
        if (!await req.openExternal(review.href)) { onChoice('cancelled'); return; }
        onChoice('opened');
        return next;
      case 'copied':
        await vscode.env.clipboard.writeText(review.href);
        onChoice('copied');
        return next;
      case 'declined': onChoice('declined'); return;
      default: onChoice('cancelled'); return;
    }
  };
}

type RetryItem = vscode.QuickPickItem & { readonly retry: boolean };

/**
 * The last step after the links were opened: retry (send the request again) now, or cancel. With
 * `completed` (a -32042 error: the server sends completion notifications) it shows the progress bar
 * and retries by itself when `completed` resolves. Without it (a URL elicitation of 2026-07-28, which
 * has no completion notification) only the user can say they are done.
 */
export function retryStep(server: ServerRef, what: string, step: number, completed: Promise<unknown> | undefined, onChoice: (retry: boolean) => void): InputStep {
  return async input => {
    const retry: RetryItem = { label: `$(refresh) ${vscode.l10n.t('Retry {0}', what)}`, description: vscode.l10n.t('once you have finished in the browser'), retry: true };
    const picked = await input.showQuickPick<RetryItem>({
      title: vscode.l10n.t('MCP server "{0}" needs you to finish in your browser', serverLabel(server)),
      step,
      totalSteps: step,
      placeholder: completed
        ? vscode.l10n.t('Waiting for "{0}" to confirm; the request is retried automatically then.', serverLabel(server))
        : vscode.l10n.t('Choose "Retry" once you have finished in the browser; "{0}" cannot tell MCP Host when you are done.', serverLabel(server)),
      items: [retry, { label: `$(close) ${vscode.l10n.t('Cancel')}`, description: vscode.l10n.t('do not retry'), retry: false }],
      activeItem: retry,
      busy: !!completed,
      ...(completed ? { acceptWhen: completed.then(() => retry) } : {}),
    });
    if (!('label' in picked)) throw InputFlowAction.cancel;
    onChoice(picked.retry);
  };
}
