/**
 * Serves `elicitation/create` in VS Code (the core's `ElicitationHandler` port) and presents the URLs of
 * -32042 errors for callers. One elicitation is shown at a time (there is one QuickInput); requests
 * wait their turn and are dropped if the server withdraws them meanwhile. Every outcome, and the reason
 * of every automatic decline, goes to the requesting server's log; answers themselves are never logged.
 */
import * as vscode from 'vscode';
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/client';
import {
  ElicitationTracker, Emitter, planForm, retryAfterUrlElicitation, reviewUrl, validateContent,
  type ElicitationCompletion, type ElicitationHandler, type McpHost, type ServerRef, type TrackedElicitation, type UrlReview,
} from '../../core';
import { MultiStepInput, type InputStep } from '../multiStepInput';
import { pickText } from '../pickText';
import { openUrlForServer, refusalMessage } from '../safeUrl';
import { runFormFlow } from './formFlow';
import { oneLine, serverLabel } from './labels';
import { retryStep, urlConsentStep, type UrlChoice } from './urlFlow';
import { showError, showWarning, withProgress } from '../notify';

/** The slice of a logger this module uses (a `vscode.LogOutputChannel` fits). */
export interface ElicitationLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ElicitationUiOptions {
  /** The log of a server (VS Code: its LogOutputChannel). */
  readonly log: (server: string) => ElicitationLog;
  /** How long to wait for `notifications/elicitation/complete` after a link was opened (default 10 min). */
  readonly completionTimeoutMs?: number;
}

export interface UrlElicitationCallOptions {
  /** The server the call goes to (else taken from the error's `server`). */
  readonly server?: ServerRef | string;
  /** What is retried, for the button ("the tool call"); default "the request". */
  readonly what?: string;
  /** At most this many calls in total (default 3). */
  readonly maxAttempts?: number;
}

export class ElicitationUi implements vscode.Disposable {
  private readonly completions = new Emitter<ElicitationCompletion>();
  private readonly tracker: ElicitationTracker;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly waits = new Map<string, { readonly server: string; readonly elicitationId: string; stop(): void }>();
  private queue: Promise<unknown> = Promise.resolve();
  private host?: McpHost;
  constructor(private readonly options: ElicitationUiOptions) {
    this.tracker = new ElicitationTracker(this.completions.event, c => this.options.log(c.server).info(`Ignored notifications/elicitation/complete for unknown or finished elicitation ${c.elicitationId}`));
  }

  /** The port given to the core. */
  readonly handler: ElicitationHandler = (server, params, signal) => this.handle(server, params, signal);

  /** Hears `notifications/elicitation/complete` from the host's servers. Call once the host exists. */
  attach(host: McpHost): void {
    this.host = host;
    this.subscriptions.push(host.onDidCompleteElicitation(c => this.completions.fire(c)));
  }

  /** URL elicitations accepted by the user whose completion the server has not reported yet. */
  waiting(): { server: string; elicitationId: string }[] {
    return [...this.waits.values()].map(w => ({ server: w.server, elicitationId: w.elicitationId }));
  }

  /**
   * Runs `call` (a tool call, a resource read, …); if the server answers -32042 "URL elicitation
   * required", shows those URLs (consent for each), waits for the server's completion notifications
   * and offers to retry — retrying by itself once every URL is reported complete. Declining or
   * cancelling rethrows the original error. For chat/tool callers:
   *
   * ```ts
   * const result = await ui.callWithUrlElicitation(() => conn.callTool(name, args), { server: conn.ref, what: vscode.l10n.t('the tool call') });
   * ```
   */
  callWithUrlElicitation<T>(call: () => Promise<T>, options: UrlElicitationCallOptions = {}): Promise<T> {
    return retryAfterUrlElicitation(call, (elicitations, ctx) => {
      const name = typeof options.server === 'string' ? options.server : options.server?.name ?? (ctx.error as { server?: string }).server ?? 'server';
      const ref = typeof options.server === 'object' ? options.server : this.host?.get(name)?.ref ?? { name };
      return this.enqueue(undefined, 'stop' as const, () => this.presentRequiredUrls(ref, elicitations, options.what ?? vscode.l10n.t('the request')));
    }, { maxAttempts: options.maxAttempts });
  }

  dispose(): void {
    for (const w of [...this.waits.values()]) w.stop();
    this.subscriptions.forEach(d => d.dispose());
    this.tracker.dispose();
    this.completions.dispose();
  }

  // ---- elicitation/create --------------------------------------------------------------------

  private async handle(server: ServerRef, params: ElicitRequestFormParams | ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult> {
    const log = this.options.log(server.name);
    try {
      return await this.enqueue<ElicitResult>(signal, { action: 'cancel' }, () => params.mode === 'url' ? this.handleUrl(server, params, log) : this.handleForm(server, params, signal, log));
    } catch (e) {
      log.error(`Elicitation failed, answered "cancel": ${e instanceof Error ? e.message : String(e)}`);
      return { action: 'cancel' };
    }
  }

  private async handleForm(server: ServerRef, params: ElicitRequestFormParams, signal: AbortSignal, log: ElicitationLog): Promise<ElicitResult> {
    const plan = planForm(params.requestedSchema);
    if (!plan.ok) {
      log.warn(`Declined a form elicitation MCP Host cannot show: ${plan.reason}`);
      const showLog = vscode.l10n.t('Show Log');
      void showWarning(vscode.l10n.t('MCP server "{0}" asked for input with a form that cannot be shown ({1}); it was declined.', serverLabel(server), plan.reason), showLog)
        .then(choice => { if (choice === showLog) void vscode.commands.executeCommand('mcpHost.showServerLog', server.name); });
      return { action: 'decline' };
    }
    for (const note of plan.notes) log.warn(note);
    log.info(`Elicitation (form, ${plan.fields.length} field${plan.fields.length === 1 ? '' : 's'}): ${oneLine(params.message)}`);
    const outcome = await runFormFlow({ server, message: params.message, fields: plan.fields, signal });
    if (outcome.action === 'accept') {
      const problems = validateContent(plan.fields, outcome.content);
      if (problems.length) {
        log.error(`Form answers did not match the requested schema and were not sent (declined): ${problems.map(p => p.message).join(' ')}`);
        return { action: 'decline' };
      }
    }
    log.info(`Elicitation answered: ${outcome.action}${signal.aborted ? ' (the server had withdrawn the request)' : ''}`);
    return outcome;
  }

  private async handleUrl(server: ServerRef, params: ElicitRequestURLParams, log: ElicitationLog): Promise<ElicitResult> {
    const reviewed = reviewUrl(params.url);
    if (!reviewed.ok) {
      log.warn(`Declined a URL elicitation: ${reviewed.reason}`);
      void showError(refusalMessage(serverLabel(server), reviewed));
      return { action: 'decline' };
    }
    // 2026-07-28 URL elicitations carry no id: that era has no completion notification, so the user
    // says when they are done in the browser, and only then does the request go again with "accept".
    const awaitsUser = !params.elicitationId;
    log.info(`Elicitation (URL ${reviewed.review.host}${awaitsUser ? '' : `, id ${params.elicitationId}`}): ${oneLine(params.message)}`);
    let choice = 'cancelled' as UrlChoice;
    let done = false;
    const doneStep = awaitsUser ? retryStep(server, vscode.l10n.t('the request'), 2, undefined, r => { done = r; }) : undefined;
    await MultiStepInput.run(urlConsentStep({ server, message: params.message, review: reviewed.review, step: 1, totalSteps: awaitsUser ? 2 : 1, openExternal: url => this.open(server, url) }, c => { choice = c; }, doneStep));
    log.info(`Elicitation answered: ${choice}${awaitsUser && (choice === 'opened' || choice === 'copied') ? (done ? ', finished in the browser' : ', not finished') : ''}`);
    switch (choice) {
      case 'opened':
      case 'copied':
        if (awaitsUser) return { action: done ? 'accept' : 'cancel' };
        this.waitForCompletion(server, params.elicitationId);
        return { action: 'accept' };
      case 'declined': return { action: 'decline' };
      default: return { action: 'cancel' };
    }
  }

  /**
   * Shows a status-bar spinner until the server reports the elicitation complete or time runs out
   * (servers may never send the notification, so this must not nag).
   */
  private waitForCompletion(server: ServerRef, elicitationId: string): void {
    const key = `${server.name}\u0000${elicitationId}`;
    if (this.waits.has(key)) return;
    const tracked = this.tracker.track(server.name, elicitationId);
    let stop!: () => void;
    const stopped = new Promise<void>(resolve => { stop = resolve; });
    this.waits.set(key, { server: server.name, elicitationId, stop });
    const timer = setTimeout(stop, this.options.completionTimeoutMs ?? 10 * 60_000);
    void withProgress({
      location: vscode.ProgressLocation.Window,
      title: vscode.l10n.t('Waiting for MCP server "{0}" to confirm you finished in the browser', serverLabel(server)),
    }, () => Promise.race([tracked.done, stopped])).then(() => {
      clearTimeout(timer);
      tracked.dispose();
      this.waits.delete(key);
      this.options.log(server.name).info(tracked.isDone ? `Elicitation ${elicitationId} completed` : `Stopped waiting for elicitation ${elicitationId} to complete`);
      if (tracked.isDone) vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) MCP server "{0}": finished in the browser', pickText(serverLabel(server), 200)), 5000);
    });
  }

  // ---- -32042 ----------------------------------------------------------------------------------

  private async presentRequiredUrls(server: ServerRef, elicitations: readonly ElicitRequestURLParams[], what: string): Promise<'retry' | 'stop'> {
    const log = this.options.log(server.name);
    const reviews: { readonly e: ElicitRequestURLParams; readonly review: UrlReview }[] = [];
    for (const e of elicitations) {
      const r = reviewUrl(e.url);
      if (!r.ok) {
        log.warn(`Not retrying: the server requires a URL that cannot be opened (${r.reason})`);
        void showError(refusalMessage(serverLabel(server), r));
        return 'stop';
      }
      reviews.push({ e, review: r.review });
    }
    log.info(`The server requires ${elicitations.length} URL elicitation${elicitations.length === 1 ? '' : 's'} before ${what} can succeed`);
    // Known from the moment the server names them: a completion it sends while the user is still
    // reading the consent (a fast browser flow, a busy editor) is kept, not ignored as unknown. Only the
    // links the user opened are waited for.
    const known = new Map(reviews.map(({ e }) => [e.elicitationId, this.tracker.track(server.name, e.elicitationId)] as const));
    const tracked = new Map<string, TrackedElicitation>();
    let retry = false;
    try {
      const total = reviews.length + 1;
      // The last step waits for every link opened on the way; built when reached, so it sees them all.
      let step: InputStep = input => retryStep(server, what, total, Promise.all([...tracked.values()].map(t => t.done)), r => { retry = r; })(input);
      for (let i = reviews.length - 1; i >= 0; i--) {
        const { e, review } = reviews[i];
        step = urlConsentStep({ server, message: e.message, review, step: i + 1, totalSteps: total, openExternal: url => this.open(server, url) }, choice => {
          if ((choice === 'opened' || choice === 'copied') && !tracked.has(e.elicitationId)) tracked.set(e.elicitationId, known.get(e.elicitationId)!);
          if (choice === 'declined' || choice === 'cancelled') log.info(`URL elicitation ${e.elicitationId}: ${choice}; not retrying`);
        }, step);
      }
      await MultiStepInput.run(step);
    } finally {
      for (const t of known.values()) t.dispose();
    }
    log.info(retry ? `Retrying ${what}` : `Not retrying ${what}`);
    return retry ? 'retry' : 'stop';
  }

  /** Opens a URL the user agreed to (the consent step showed its host) through the safe-URL opener, which opens the exact text. */
  private async open(server: ServerRef, url: string): Promise<boolean> {
    return await openUrlForServer(url, { server: serverLabel(server) }) === 'opened';
  }

  /** Runs UI tasks one at a time; a task whose request was withdrawn while waiting is skipped. */
  private enqueue<T>(signal: AbortSignal | undefined, fallback: T, task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => signal?.aborted ? fallback : task());
    this.queue = run.catch(() => undefined);
    return run;
  }
}
