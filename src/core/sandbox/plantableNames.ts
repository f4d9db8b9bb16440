/**
 * THE list of names a sandboxed server may not write in any folder it may write, with why each is
 * on it (SECURITY.md §9 mirrors it). The rule that puts a name here: a program runs it, or loads
 * code or picks the program to run from it, on its own — when the user opens the folder in the
 * editor (its language servers, linters and formatters on open or save, test explorers that load
 * their config to list tests), runs a common command there (git, npm/yarn/pnpm/bun, cargo), `cd`s
 * into it (direnv, version managers), or commits (hook frameworks). Not here: what runs only when
 * the user runs it (`Makefile`, `package.json` scripts, sources, build definitions such as
 * `CMakeLists.txt` or `build.gradle`), and manifests that mix the project's own data with tool
 * settings (`package.json`, `pyproject.toml`, `setup.cfg`, `Cargo.toml`): they are the server's
 * work; SECURITY.md says what that leaves.
 *
 * A name with `*` is a glob on one file name (`*` matches any run of characters). Names of kinds
 * that `placeholder` marks are held even when absent, by srt's empty read-only placeholders (Git and
 * the shell act on them the instant they appear); an absent name of the other kinds is left to the
 * plant guard (Linux) or to sandbox-exec's patterns (macOS), so a root is not strewn with dozens of
 * empty files and the user's own `npm install` is not broken by an empty `node_modules` file.
 */
export interface PlantableKind {
  readonly names: readonly string[];
  /** Why these names make another program run code: said to the user when one is caught. */
  readonly why: string;
  readonly placeholder?: boolean;
}

export const PLANTABLE_KINDS: readonly PlantableKind[] = [
  { placeholder: true, names: ['.git', '.gitmodules'], why: 'Git runs what .git holds (config: core.fsmonitor, pager, aliases; hooks; info; commondir) on the next git status, and .gitmodules names what it clones' },
  { placeholder: true, names: ['.vscode', '.idea', '.devcontainer', '.cursor', '.claude', '.mcp.json'], why: 'the editor or an agent runs the tasks, launch configurations, MCP servers, hooks or container commands it declares' },
  { names: ['.devcontainer.json', '*.code-workspace'], why: 'the editor offers to open the folder in the container it declares (running its commands), or the workspace it declares (its tasks and settings)' },
  { placeholder: true, names: ['.envrc', '.mise.toml', 'mise.toml', '.tool-versions', '.python-version', '.node-version', '.nvmrc', '.ruby-version'], why: 'direnv runs it on cd, or a version manager picks the interpreter from it' },
  { names: ['.mise.*.toml', 'mise.*.toml', '.mise', 'mise', '.rtx.toml', '.config'], why: 'mise reads its tasks, hooks and environment from it on cd (.config/mise.toml, mise/config.toml); in a root used as a home, .config holds autostart entries and shell configuration' },
  { placeholder: true, names: ['.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs'], why: 'npm, Yarn or pnpm run the script-shell, node-options, yarnPath or install hooks it names on any command' },
  { names: ['node_modules', '.yarn', '.pnp.cjs', '.pnp.loader.mjs', 'bunfig.toml', 'deno.json', 'deno.jsonc'], why: 'the editor loads installed packages from it on open (the ESLint, Prettier, Jest and Vitest extensions load the workspace\'s own eslint, prettier, jest, vitest and every plugin their configs import), Yarn runs its releases and plugins, Bun its preload scripts, Deno\'s language server its lint plugins' },
  { names: ['eslint.config.*', '.eslintrc', '.eslintrc.*', '.prettierrc', '.prettierrc.*', 'prettier.config.*', '.stylelintrc', '.stylelintrc.*', 'stylelint.config.*', '.babelrc', '.babelrc.*', 'babel.config.*', 'tailwind.config.*', 'postcss.config.*'], why: 'a linter, formatter or language extension loads it as code (or the parser and plugins it names by path) when a file is opened or saved' },
  { names: ['jest.config.*', 'vitest.config.*', 'vitest.workspace.*', 'vite.config.*', 'playwright.config.*'], why: 'a test extension loads it as code on open to list the tests (Jest\'s also runs them)' },
  { names: ['.venv', 'venv', 'pyvenv.cfg', 'conda-meta', '.pylintrc', 'pylintrc', 'mypy.ini', '.mypy.ini'], why: 'the Python extension runs the interpreter of a virtual environment it finds in the folder on open, and Pylint and Mypy run the init-hook and plugins their config names' },
  { names: ['.cargo', 'rust-toolchain', 'rust-toolchain.toml'], why: 'cargo (and rust-analyzer, on open) runs the rustc wrapper, runner or toolchain path it names' },
  { names: ['.mvn', 'gradle.properties', 'gradle-wrapper.properties', 'gradle-wrapper.jar', 'CMakePresets.json', 'CMakeUserPresets.json'], why: 'the Java or CMake extension imports the project on open with the JVM options, extensions, build tool download or cmake executable it names' },
  { names: ['.bundle', '.rubocop.yml'], why: 'Bundler (run by the Ruby language server on open) reads its Gemfile and paths from .bundle/config, and RuboCop requires the files .rubocop.yml names' },
  { placeholder: true, names: ['.husky', '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml'], why: 'a hook framework runs it on the next commit' },
  { names: ['lefthook*.yml', '.lefthook*.yml', 'lefthook*.yaml', '.lefthook*.yaml', 'lefthook*.json', '.lefthook*.json', 'lefthook*.toml', '.lefthook*.toml', '.lefthook', '.lefthook-local'], why: 'Lefthook runs the commands it declares on the next commit' },
  { placeholder: true, names: ['.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.gitconfig', '.ripgreprc'], why: 'a shell or tool started with the root as its home runs or reads it' },
];

/** The names held by a placeholder when absent (exact names only). */
export const PLACEHOLDER_NAMES: readonly string[] = PLANTABLE_KINDS.filter(k => k.placeholder).flatMap(k => k.names);

const exact = new Map<string, PlantableKind>();
const globs: Array<{ re: RegExp; kind: PlantableKind }> = [];
for (const kind of PLANTABLE_KINDS) {
  for (const n of kind.names) {
    if (n.includes('*')) globs.push({ re: new RegExp(`^${n.toLowerCase().split('*').map(escape).join('.*')}$`), kind });
    else exact.set(n.toLowerCase(), kind);
  }
}

/** The kind a file name is of (case-insensitive: macOS and Windows file systems are), if any. */
export function plantableKind(name: string): PlantableKind | undefined {
  const lower = name.toLowerCase();
  return exact.get(lower) ?? globs.find(g => g.re.test(lower))?.kind;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
