/**
 * Every notification the extension shows goes through here (messages and progress), and so does the
 * text of every InputBox's `prompt` and validation message. VS Code renders `[label](target)` in a
 * notification as a link and opens it on click — `command:` links run a command with the link's
 * arguments — and our messages quote text that servers, registries, bundles and imported files chose
 * (an error message, a title, a package name). Cleaning at each call site missed some; cleaning here
 * covers all of them, and a unit test refuses `window.show*Message` and `window.withProgress` anywhere
 * else in `src/` (and InputBoxes outside multiStepInput.ts). VS Code renders an InputBox's prompt and
 * validation message with live `command:` links too, and a progress title after stripping `$(icons)`.
 * No message of ours writes a link on purpose, so nothing is lost.
 */
import * as vscode from 'vscode';
import { plainText, unlinked } from '../core/text/plainText';

// A notification shows a few lines; a longer text only hides its end (and what it says there) from view.
const MAX_MESSAGE = 2000;
const MAX_DETAIL = 4000;

type Item = string | vscode.MessageItem;
type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/** The text as a notification may show it: no escapes or invisible characters, no link, bounded. */
export function notificationText(text: string, maxLength = MAX_MESSAGE): string {
  return unlinked(plainText(text, { maxLength }));
}

function show(kind: Show, message: string, rest: readonly unknown[]): Thenable<unknown> {
  const [first, ...items] = rest;
  if (isOptions(first)) {
    const options: vscode.MessageOptions = first.detail === undefined ? first : { ...first, detail: notificationText(first.detail, MAX_DETAIL) };
    return kind(notificationText(message), options, ...items);
  }
  return kind(notificationText(message), ...rest);
}

// Options are the one object argument without a `title` (a MessageItem always has one).
function isOptions(value: unknown): value is vscode.MessageOptions {
  return typeof value === 'object' && value !== null && !('title' in value);
}

export function showError<T extends Item>(message: string, ...items: T[]): Thenable<T | undefined>;
export function showError<T extends Item>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showError(message: string, ...rest: unknown[]): Thenable<unknown> {
  return show(vscode.window.showErrorMessage as Show, message, rest);
}

export function showWarning<T extends Item>(message: string, ...items: T[]): Thenable<T | undefined>;
export function showWarning<T extends Item>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showWarning(message: string, ...rest: unknown[]): Thenable<unknown> {
  return show(vscode.window.showWarningMessage as Show, message, rest);
}

export function showInfo<T extends Item>(message: string, ...items: T[]): Thenable<T | undefined>;
export function showInfo<T extends Item>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showInfo(message: string, ...rest: unknown[]): Thenable<unknown> {
  return show(vscode.window.showInformationMessage as Show, message, rest);
}

/** An InputBox's `prompt` or validation message as VS Code may render it (with live links): cleaned and unlinked. */
export function inputBoxText(text: string): string;
export function inputBoxText(text: string | undefined): string | undefined;
export function inputBoxText(text: string | undefined): string | undefined {
  return text === undefined ? undefined : notificationText(text, MAX_MESSAGE);
}

/**
 * `window.withProgress` whose title and reported messages are cleaned and unlinked: a notification
 * progress shows them like a message (a tool's title, a server's name and its own progress text).
 */
export function withProgress<R>(options: vscode.ProgressOptions, task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>): Thenable<R> {
  // Outside a notification (the status bar, a view) the title draws `$(icons)`: written `\$(` there.
  const text = options.location === vscode.ProgressLocation.Notification ? notificationText : (t: string) => notificationText(t).replace(/\$\(/g, '\\$(');
  const clean = options.title === undefined ? options : { ...options, title: text(options.title) };
  return vscode.window.withProgress(clean, (progress, token) => task({
    report: value => progress.report(value.message === undefined ? value : { ...value, message: text(value.message) }),
  }, token));
}
