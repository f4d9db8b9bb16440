/**
 * Issue 27.1, the files beyond Git's that make another program run code on its own: the editor's
 * linters, formatters, test explorers and language extensions load them as code when the folder is
 * opened or a file saved, a package manager or cargo on any command, a version manager on `cd`, a hook
 * framework on commit. A sandboxed server that writes one has code run outside the sandbox later.
 * This table is the attacker's, written from what those tools load — not copied from the product's
 * list — one test per class: each file existing when the server starts (at the root and in a
 * package folder) is read-only, and the first one written while it runs (at the root where absent,
 * or in a folder made then) stops the server and goes to the quarantine.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ServerConnection } from '../../src/core';
import { waitForState } from './helpers';
import { callText, plantSetup, startEscapee, withEscapee, type Setup } from './sandboxPlantSetup';

const itOnLinux = process.platform === 'linux' ? it : it.skip;

/** Files (relative to a folder of the root) each tool runs or loads code from by itself. */
const classes: Array<{ name: string; files: string[] }> = [
  { name: 'ESLint configurations (the ESLint extension imports them on open)', files: ['eslint.config.mjs', 'eslint.config.ts', 'eslint.config.cjs', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.json'] },
  { name: 'Prettier configurations (loaded with their plugins on format-on-save)', files: ['.prettierrc.mjs', 'prettier.config.cjs', 'prettier.config.ts', '.prettierrc', '.prettierrc.yaml'] },
  { name: 'other linters\' and language extensions\' code configurations (Stylelint, Babel, Tailwind, PostCSS)', files: ['.stylelintrc.js', 'stylelint.config.mjs', 'babel.config.js', '.babelrc', 'tailwind.config.ts', 'postcss.config.mjs'] },
  { name: 'test explorers\' configurations (Jest, Vitest, Playwright load them on open)', files: ['jest.config.ts', 'vitest.config.mts', 'vitest.workspace.ts', 'vite.config.js', 'playwright.config.ts'] },
  { name: 'installed packages and package managers\' code (node_modules the editor loads eslint and prettier from, Yarn releases, PnP, Bun preload, Deno)', files: ['node_modules/eslint/lib/api.js', 'node_modules/prettier/index.cjs', '.yarn/releases/yarn-4.5.0.cjs', '.pnp.cjs', 'bunfig.toml', 'deno.json'] },
  { name: 'Python environments and linters (the Python extension runs a venv\'s interpreter on open; Pylint\'s init-hook)', files: ['.venv/bin/python', 'venv/pyvenv.cfg', 'env/pyvenv.cfg', '.pylintrc', 'mypy.ini'] },
  { name: 'containers and workspace files the editor offers to open', files: ['.devcontainer.json', 'team.code-workspace', '.devcontainer/devcontainer.json'] },
  { name: 'mise and version managers (read on cd)', files: ['.config/mise.toml', '.config/mise/config.toml', 'mise.local.toml', '.mise.local.toml', 'mise/config.toml', '.tool-versions'] },
  { name: 'Rust toolchain and cargo configuration (rust-analyzer runs cargo on open)', files: ['.cargo/config.toml', 'rust-toolchain.toml', 'rust-toolchain'] },
  { name: 'Java and CMake project import on open (JVM options, Maven extensions, Gradle wrapper, CMake presets)', files: ['.mvn/jvm.config', '.mvn/extensions.xml', 'gradle/wrapper/gradle-wrapper.properties', 'gradle.properties', 'CMakePresets.json', 'CMakeUserPresets.json'] },
  { name: 'Ruby (Bundler\'s config, RuboCop\'s require)', files: ['.bundle/config', '.rubocop.yml'] },
  { name: 'commit hook frameworks', files: ['lefthook-local.yml', 'lefthook.yaml', '.lefthook.yml', 'lefthook.json', '.lefthook/pre-commit/check.sh', '.husky/pre-commit', '.pre-commit-config.yaml'] },
];

const ORIGINAL = 'the user\'s own\n';
const PLANTED = 'planted: runs outside the sandbox\n';
/** Where the user's files are when the server starts: the root and a package folder of a monorepo. */
const places = ['', 'packages/app'];

describe('sandbox: files other tools run on their own are held in every writable folder (issue 27.1)', function () {
  this.timeout(120_000);

  describe('existing when the server starts: read-only', () => {
    let s: Setup;
    let conn: ServerConnection;
    let stop: () => Promise<void>;
    before(async () => {
      s = plantSetup('mcp-plant-names-');
      for (const c of classes) for (const place of places) for (const f of c.files) {
        const file = path.join(s.root, place, f);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, ORIGINAL);
      }
      ({ conn, stop } = await startEscapee(s, true));
    });
    after(async () => { await stop?.(); rmSync(s.dir, { recursive: true, force: true }); });

    it('unsandboxed, the same server overwrites each of them (proof the writes work)', async () => {
      const u = plantSetup('mcp-plant-names-u-');
      try {
        const files = classes.flatMap(c => c.files).map(f => path.join(u.root, 'packages/app', f));
        for (const f of files) { mkdirSync(path.dirname(f), { recursive: true }); writeFileSync(f, ORIGINAL); }
        await withEscapee(u, false, async c => {
          for (const f of files) assert.equal((await callText(c, 'write-file', { path: f, text: PLANTED })).isError, false, f);
        });
        for (const f of files) assert.equal(readFileSync(f, 'utf8'), PLANTED);
      } finally { rmSync(u.dir, { recursive: true, force: true }); }
    });

    for (const c of classes) {
      itOnLinux(`sandboxed, ${c.name}: every write is refused and the user's file stays`, async () => {
        const written: string[] = [];
        for (const place of places) for (const f of c.files) {
          const file = path.join(s.root, place, f);
          const r = await callText(conn, 'write-file', { path: file, text: PLANTED });
          if (!r.isError || readFileSync(file, 'utf8') !== ORIGINAL) written.push(path.join(place, f));
        }
        assert.deepEqual(written, [], `the sandboxed server wrote ${written.join(', ')}`);
        assert.equal(conn.state, 'running', 'refused writes do not stop the server');
      });
    }
  });

  describe('absent when the server starts: the first one written stops it and is moved to the quarantine', () => {
    let s: Setup;
    beforeEach(() => { s = plantSetup('mcp-plant-names-'); });
    afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

    classes.forEach((c, i) => {
      // Half at the root (absent there, no placeholder needed), half in folders the server makes.
      const rel = path.join(i % 2 ? 'made/while/running' : '', c.files[0]);
      itOnLinux(`sandboxed, ${c.name}: ${rel}`, async () => {
        const file = path.join(s.root, rel);
        let answer = '';
        let state = '';
        await withEscapee(s, true, async conn => {
          const r = await callText(conn, 'run', { command: 'sh', args: ['-c', `mkdir -p "$(dirname "$1")" && printf '%s' "$2" > "$1"`, 'sh', file, PLANTED], cwd: s.root }).catch(e => ({ isError: true, text: String(e) }));
          answer = r.text.slice(0, 200);
          await waitForState(conn, 'error', 10_000).catch(() => { /* asserted below */ });
          state = `${conn.state}: ${conn.message ?? ''}`;
        });
        assert.ok(!existsSync(file), `${rel} is still in the root (${answer}; ${state})`);
        assert.match(state, /^error: .*appeared, which would make Git or the editor run code outside the sandbox\. It was moved to .*Why: /);
        // The guard moves the plant the moment it appears and stops the server: the shell may not have
        // made the file inside a planted folder yet, nor written its bytes. What is kept is the plant so far.
        const entries = readdirSync(path.join(s.storage, 'sandbox-quarantine'), { recursive: true, withFileTypes: true });
        const segments = c.files[0].split('/');
        assert.ok(entries.some(e => segments.includes(e.name)), `the plant is kept in the quarantine (${entries.map(e => e.name).join(', ')})`);
        for (const e of entries.filter(f => f.isFile())) assert.ok(PLANTED.startsWith(readFileSync(path.join(e.parentPath, e.name), 'utf8')), `${e.name} holds the plant`);
      });
    });
  });
});
