/**
 * `npm run lint` (part of `npm test`) guards two rules the project relies on: the core never imports
 * `vscode` (it must stay embeddable) and no promise floats unhandled. A config edit that silently
 * drops either would leave lint green; this lints offending text as if it were in src/core and src/vscode.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const repo = path.resolve(__dirname, '../../..');
const offending = [
  "import * as vscode from 'vscode';",
  'async function later(): Promise<void> { /* */ }',
  'export function run(): unknown { later(); return vscode; }',
  '',
].join('\n');

async function ruleIds(file: string): Promise<string[]> {
  // With CI=true typescript-eslint infers a "single run" and type-checks the file as it is on disk,
  // not the text given here; a linter in an editor (what lintText stands for) never runs that way.
  const eslint = new ESLint({
    cwd: repo,
    overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
  });
  const [result] = await eslint.lintText(offending, { filePath: path.join(repo, file) });
  return result.messages.map(m => m.ruleId ?? `fatal: ${m.message}`).sort();
}

describe('lint rules (eslint.config.mjs)', function () {
  this.timeout(120_000); // type-aware linting builds the project's program

  it('bans importing vscode in src/core and flags a floating promise there', async () => {
    assert.deepEqual(await ruleIds('src/core/index.ts'), ['@typescript-eslint/no-floating-promises', 'no-restricted-imports']);
  });

  it('bans importing vscode in src/cli (an embedder of the core) and flags a floating promise there', async () => {
    assert.deepEqual(await ruleIds('src/cli/main.ts'), ['@typescript-eslint/no-floating-promises', 'no-restricted-imports']);
  });

  it('flags a floating promise in src/vscode (where importing vscode is fine)', async () => {
    assert.deepEqual(await ruleIds('src/vscode/commands.ts'), ['@typescript-eslint/no-floating-promises']);
  });
});
