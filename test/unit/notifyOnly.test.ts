/**
 * Issue 28 §1/§7: VS Code renders `[label](command:…)` in a notification as a link that runs the
 * command, and notifications quote text that servers, registries and bundles chose. src/vscode/notify.ts
 * unlinks and cleans every message; this test keeps it the only way to show one, so a new call site
 * cannot forget to clean (the workbench notification tests show the result in a real VS Code).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './helpers';

const SHOW = /\bshow(?:Error|Warning|Information)Message\b/;
const ALLOWED = path.join('src', 'vscode', 'notify.ts');

describe('notifications go through notify.ts', () => {
  it('no file under src/ but notify.ts names window.show*Message', () => {
    const src = path.join(repoRoot, 'src');
    const offenders: string[] = [];
    for (const f of fs.readdirSync(src, { recursive: true }) as string[]) {
      if (!f.endsWith('.ts')) continue;
      const rel = path.join('src', f);
      if (rel === ALLOWED) continue;
      fs.readFileSync(path.join(src, f), 'utf8').split('\n').forEach((line, i) => {
        if (SHOW.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offenders, [], 'show notifications with showError/showWarning/showInfo from src/vscode/notify.ts');
  });

  it('notify.ts itself still wraps all three', () => {
    const text = fs.readFileSync(path.join(repoRoot, ALLOWED), 'utf8');
    for (const kind of ['Error', 'Warning', 'Information']) assert.match(text, new RegExp(`vscode\\.window\\.show${kind}Message`));
  });
});
