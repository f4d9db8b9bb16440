/**
 * api.d.ts — the exported API's types that other extensions compile against — is shipped in the
 * .vsix, matches src/vscode/api.ts, and a consumer extension (test/fixtures/api-consumer) compiles
 * against it alone; the scripted-model fixture (JavaScript) type-checks its API calls against it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '../../..');

describe('api.d.ts (the exported API for other extensions)', function () {
  this.timeout(180_000); // tsc on a busy machine

  it('is generated from src/vscode/api.ts and up to date (npm run api)', async () => {
    const { generateApiTypes } = await import(path.join(repo, 'test/rig/apiTypes.mjs')) as { generateApiTypes: () => Promise<string> };
    assert.equal(fs.readFileSync(path.join(repo, 'api.d.ts'), 'utf8'), await generateApiTypes(), 'api.d.ts is stale: run npm run api');
  });

  it('a consumer extension compiles against it, and its misuses (removed members, wrong types) do not', () => {
    const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'test/fixtures/api-consumer/tsconfig.json'], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
  });

  it('types the scripted-model fixture\'s calls through the API (JSDoc on the shipped api.d.ts)', () => {
    const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'test/fixtures/api-consumer/tsconfig.lm.json'], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
    assert.match(fs.readFileSync(path.join(repo, 'test/fixtures/lm-extension/extension.js'), 'utf8'), /@type \{vscode\.Extension<McpHostApi> \| undefined\}/);
  });

  it('is in the .vsix (the .vscodeignore allow-list)', async () => {
    const vsce = await import('@vscode/vsce');
    const files = await vsce.listFiles({ cwd: repo, packageManager: vsce.PackageManager.None });
    assert.ok(files.includes('api.d.ts'), files.join(', '));
  });
});
