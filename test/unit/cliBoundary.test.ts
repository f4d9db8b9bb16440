/**
 * The CLI (src/cli) is an embedder of the core like any other: every module it loads from this
 * repository is its own or one of the core's public entries, src/core/index.ts and its SDK-free part
 * src/core/light.ts (@mcp-host/core and @mcp-host/core/light). A deep import (src/core/x/y)
 * would let the CLI depend on what an embedder of @mcp-host/core cannot reach.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { repoRoot } from './helpers';

const cliDir = path.join(repoRoot, 'src/cli');
const coreIndex = path.join(repoRoot, 'src/core/index.ts');
/** The core's public entries (packages/core/package.json "exports"), relative to a repository root. */
const ENTRIES = ['src/core/index.ts', 'src/core/light.ts'];

/** Each relative import, `require()` and `import()` of a file, resolved to the file it names. */
export function repositoryImports(file: string): { specifier: string; target: string }[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.filter(i => i.fileName.startsWith('.')).map(i => {
    const base = path.resolve(path.dirname(file), i.fileName);
    const target = [`${base}.ts`, path.join(base, 'index.ts'), base].find(p => fs.existsSync(p) && fs.statSync(p).isFile()) ?? base;
    return { specifier: i.fileName, target };
  });
}

/** What a CLI source file under `root`/src/cli may load: the CLI's own files and the core's public entries. */
export function outsideCliBoundary(file: string, root = repoRoot): string[] {
  const ownDir = path.join(root, 'src/cli') + path.sep;
  const entries = ENTRIES.map(e => path.join(root, e));
  return repositoryImports(file)
    .filter(({ target }) => !entries.includes(target) && !target.startsWith(ownDir))
    .map(({ specifier, target }) => `${path.relative(root, file)}: ${specifier} (${path.relative(root, target)})`);
}

describe('src/cli imports only the core\'s public index', () => {
  it('no CLI file reaches into src/core beyond index.ts and light.ts, or into src/vscode', () => {
    const files = fs.readdirSync(cliDir, { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.ts')).map(f => path.join(cliDir, f));
    assert.ok(files.some(f => f.endsWith('main.ts')), `no CLI sources found in ${cliDir}`);
    assert.deepEqual(files.flatMap(f => outsideCliBoundary(f)), []);
    assert.ok(files.some(f => repositoryImports(f).some(i => i.target === coreIndex)), 'the CLI no longer uses the core at all?');
  });

  it('the check sees a deep import, a require() and an import() (so it cannot pass vacuously)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-boundary-'));
    try {
      fs.mkdirSync(path.join(root, 'src/cli/sub'), { recursive: true });
      fs.mkdirSync(path.join(root, 'src/core'));
      fs.writeFileSync(path.join(root, 'src/core/index.ts'), '');
      const probe = path.join(root, 'src/cli/sub/probe.ts');
      fs.writeFileSync(probe, [
        "import { redact } from '../../core/redact';",
        "const j = require('../../core/onboarding/jsonc');",
        "void import('../../vscode/commands');",
        "import { McpHost } from '../../core';", "import { x } from './own';",
      ].join('\n'));
      assert.deepEqual(outsideCliBoundary(probe, root).map(s => s.replace(/^.*?: /, '').split(' ')[0]), ['../../core/redact', '../../core/onboarding/jsonc', '../../vscode/commands']);
    } finally { fs.rmSync(root, { recursive: true, force: true }); }
  });
});
