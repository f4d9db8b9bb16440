/**
 * Issue 28 §1/§7: VS Code renders `[label](command:…)` as a link that runs the command in a notification's
 * message, in a progress notification's title (after stripping `$(icons)`) and in an InputBox's prompt and
 * validation message, and all of them quote text that servers, registries and bundles chose.
 * src/vscode/notify.ts cleans and unlinks them; this test keeps it the only way to show a notification or a
 * progress, and keeps InputBoxes where their prompt and validation message pass through `inputBoxText`, so a
 * new call site cannot forget to clean (the workbench notification tests show the result in a real VS Code).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './helpers';

const NOTIFY = path.join('src', 'vscode', 'notify.ts');
/**
 * Files that may show a notification themselves, and why. The activation bundle (src/extension.ts) must hold
 * nothing of the core (activationBundle.test.ts), and its one message quotes a failure to load our own bundle.
 */
const OWN_NOTIFICATIONS: Record<string, string> = { [path.join('src', 'extension.ts')]: 'the activation bundle: no core code, no server text' };
/** Files that may open an InputBox themselves, and why they may. */
const INPUT_BOXES: Record<string, string> = {
  [path.join('src', 'vscode', 'multiStepInput.ts')]: 'every multi-step flow: cleans prompt and validation message',
  [path.join('src', 'vscode', 'auth', 'userAgent.ts')]: 'the OAuth client ID and secret boxes (the issuer is in the prompt)',
  [path.join('src', 'vscode', 'resources', 'commands.ts')]: 'the resource filter box',
};

function sourceLines(): { rel: string; line: string; at: number }[] {
  const src = path.join(repoRoot, 'src');
  const out: { rel: string; line: string; at: number }[] = [];
  for (const f of fs.readdirSync(src, { recursive: true }) as string[]) {
    if (!f.endsWith('.ts')) continue;
    fs.readFileSync(path.join(src, f), 'utf8').split('\n').forEach((line, i) => out.push({ rel: path.join('src', f), line, at: i + 1 }));
  }
  return out;
}

describe('notifications, progress and input boxes go through notify.ts', () => {
  const lines = sourceLines();
  const where = (l: { rel: string; line: string; at: number }) => `${l.rel}:${l.at}: ${l.line.trim()}`;

  it('no file under src/ but notify.ts names window.show*Message or window.withProgress', () => {
    const offenders = lines.filter(l => l.rel !== NOTIFY && !(l.rel in OWN_NOTIFICATIONS && !/withProgress/.test(l.line)) && /\bshow(?:Error|Warning|Information)Message\b|\bwindow\.withProgress\b/.test(l.line)).map(where);
    assert.deepEqual(offenders, [], 'show notifications and progress with showError/showWarning/showInfo/withProgress from src/vscode/notify.ts');
  });

  it('InputBoxes are opened only where their prompt and validation message pass through inputBoxText', () => {
    const opened = lines.filter(l => /\bwindow\.(?:createInputBox|showInputBox)\b/.test(l.line));
    assert.deepEqual(opened.filter(l => !(l.rel in INPUT_BOXES)).map(where), [], 'open InputBoxes through MultiStepInput (src/vscode/multiStepInput.ts)');
    const code = (l: { line: string }) => !/^\s*(?:\*|\/\/)/.test(l.line) && !/\breadonly\s+prompt\b/.test(l.line);
    const raw = lines.filter(l => l.rel in INPUT_BOXES && code(l) && /(?:\bprompt\s*[:=](?!=)|\.validationMessage\s*=)/.test(l.line) && !/inputBoxText\(/.test(l.line));
    assert.deepEqual(raw.map(where), [], 'a prompt or validation message set without inputBoxText');
  });

  it('notify.ts itself still wraps the three kinds and the progress', () => {
    const text = fs.readFileSync(path.join(repoRoot, NOTIFY), 'utf8');
    for (const api of ['showErrorMessage', 'showWarningMessage', 'showInformationMessage', 'withProgress']) assert.match(text, new RegExp(`vscode\\.window\\.${api}\\b`));
  });
});
