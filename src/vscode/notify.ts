/**
 * Every notification the extension shows goes through here. VS Code renders `[label](target)` in a
 * notification as a link and opens it on click — `command:` links run a command with the link's
 * arguments — and our messages quote text that servers, registries, bundles and imported files chose
 * (an error message, a title, a package name). Cleaning at each call site missed some; cleaning here
 * covers all of them, and a unit test refuses `window.show*Message` anywhere else in `src/`.
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
