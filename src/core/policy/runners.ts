/**
 * Which package a runner command starts (`npx -y pkg@1`, `uvx --from pkg tool`, `docker run … image`).
 * Only flags whose effect is known are accepted: a flag this file does not know (`--node-options`,
 * `--registry`, `--index-url`…) may load other code or fetch the name from elsewhere, so the packages
 * are then `unsure` and a package rule cannot admit the server (a deny rule still applies).
 */

export type Ecosystem = 'npm' | 'pypi' | 'oci' | 'nuget';

export interface PackageRef { readonly ecosystem: Ecosystem; readonly name: string; readonly version?: string }

export interface RunnerPackages { readonly packages: readonly PackageRef[]; readonly unsure: boolean }

interface RunnerSpec {
  readonly ecosystem: Ecosystem;
  /** Flags that take no value. */
  readonly plain: readonly string[];
  /** Flags followed by a value that does not name a package. */
  readonly valued: readonly string[];
  /** Flags followed by a package (npx `-p`, uvx `--from`/`--with`). */
  readonly packageFlags: readonly string[];
  /** With a package flag present, the first positional is a command name, not a package. */
  readonly positionalIsCommandWhenFlagged: boolean;
}

const NPX: RunnerSpec = { ecosystem: 'npm', plain: ['-y', '--yes', '--no', '-q', '--quiet', '--prefer-offline', '--prefer-online', '--offline', '-s', '--silent'], valued: [], packageFlags: ['-p', '--package'], positionalIsCommandWhenFlagged: true };
const UVX: RunnerSpec = { ecosystem: 'pypi', plain: ['-q', '--quiet', '--offline', '--isolated', '--no-cache', '-n'], valued: ['--python', '-p', '--cache-dir'], packageFlags: ['--from', '--with'], positionalIsCommandWhenFlagged: true };
const PIPX: RunnerSpec = { ecosystem: 'pypi', plain: ['-q', '--quiet', '--no-cache'], valued: ['--python'], packageFlags: ['--spec'], positionalIsCommandWhenFlagged: true };
const DOCKER: RunnerSpec = {
  ecosystem: 'oci',
  plain: ['-i', '-t', '-it', '-ti', '--rm', '-d', '--init', '--read-only', '-q', '--interactive', '--tty', '--detach'],
  valued: ['-e', '--env', '--env-file', '-v', '--volume', '--name', '--network', '--net', '-p', '--publish', '--mount', '-w', '--workdir', '-u', '--user', '--platform', '--pull', '-l', '--label', '--cpus', '-m', '--memory', '--hostname', '-h', '--add-host', '--entrypoint', '--cap-drop', '--security-opt', '--tmpfs'],
  packageFlags: [], positionalIsCommandWhenFlagged: false,
};
const DNX: RunnerSpec = { ecosystem: 'nuget', plain: ['--yes', '-y'], valued: ['--source', '--add-source'], packageFlags: [], positionalIsCommandWhenFlagged: false };

/** `command` as a bare program name: `C:\node\npx.cmd` → `npx`. */
export function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(exe|cmd|bat|ps1|sh)$/i, '').toLowerCase();
}

/** The runner spec and the arguments it reads, for `npx …`, `npm exec …`, `docker run …`; undefined for other programs. */
function runnerOf(command: string, args: readonly string[]): { spec: RunnerSpec; rest: readonly string[] } | undefined {
  const p = programName(command);
  switch (p) {
    case 'npx': case 'bunx': case 'pnpx': return { spec: NPX, rest: args };
    case 'npm': return args[0] === 'exec' || args[0] === 'x' ? { spec: NPX, rest: args.slice(1) } : undefined;
    case 'pnpm': case 'yarn': return args[0] === 'dlx' ? { spec: NPX, rest: args.slice(1) } : undefined;
    case 'bun': return args[0] === 'x' ? { spec: NPX, rest: args.slice(1) } : undefined;
    case 'uvx': return { spec: UVX, rest: args };
    case 'uv': return args[0] === 'tool' && args[1] === 'run' ? { spec: UVX, rest: args.slice(2) } : undefined;
    case 'pipx': return args[0] === 'run' ? { spec: PIPX, rest: args.slice(1) } : undefined;
    case 'docker': case 'podman': return args[0] === 'run' ? { spec: DOCKER, rest: args.slice(1) } : undefined;
    case 'dnx': return { spec: DNX, rest: args };
    default: return undefined;
  }
}

/** Whether `command` is a package runner this file reads (a package rule can only admit those). */
export function isRunner(command: string, args: readonly string[]): boolean {
  return runnerOf(command, args) !== undefined;
}

export function runnerPackages(command: string, args: readonly string[]): RunnerPackages {
  const runner = runnerOf(command, args);
  if (!runner) return { packages: [], unsure: false };
  const { spec, rest } = runner;
  const flagged: string[] = [];
  let positional: string | undefined;
  let unsure = false;
  for (let i = 0; i < rest.length && positional === undefined; i++) {
    const a = rest[i];
    if (a === '--') { positional = rest[i + 1]; break; }
    if (!a.startsWith('-')) { positional = a; break; }
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (spec.plain.includes(flag) && inline === undefined) continue;
    if (spec.valued.includes(flag) || spec.packageFlags.includes(flag)) {
      const value = inline ?? rest[++i];
      if (value === undefined) { unsure = true; break; }
      if (spec.packageFlags.includes(flag)) flagged.push(value);
      continue;
    }
    unsure = true; // a flag of unknown effect
  }
  const specs = flagged.length ? (spec.positionalIsCommandWhenFlagged ? flagged : [...flagged, ...(positional ? [positional] : [])]) : positional ? [positional] : [];
  const packages: PackageRef[] = [];
  for (const s of specs) {
    const ref = parseSpec(spec.ecosystem, s);
    if (ref) packages.push(ref); else unsure = true;
  }
  if (!specs.length) unsure = true;
  return { packages, unsure };
}

/** `@scope/pkg@1.2`, `pkg==1.0`, `ghcr.io/o/img:1@sha256:…`; undefined for a URL, a path or a git spec. */
function parseSpec(ecosystem: Ecosystem, s: string): PackageRef | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(s) && !(ecosystem === 'oci' && /^[^/]+:\d+\//.test(s))) return undefined; // https:, github:, file:, npm: aliases
  if (s.startsWith('.') || s.startsWith('/') || s.startsWith('~') || s.includes('\\')) return undefined;
  if (ecosystem === 'npm') {
    const at = s.indexOf('@', 1);
    const name = at > 0 ? s.slice(0, at) : s;
    const version = at > 0 ? s.slice(at + 1) : undefined;
    if (!/^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/i.test(name)) return undefined;
    if (version !== undefined && !/^[A-Za-z0-9._^~<>=*|+ -]+$/.test(version)) return undefined;
    return { ecosystem, name: name.toLowerCase(), version };
  }
  if (ecosystem === 'pypi') {
    const m = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?:\[[A-Za-z0-9,._-]+\])?(?:(?:==|@)([A-Za-z0-9.*+!_-]+))?$/.exec(s);
    return m ? { ecosystem, name: m[1].toLowerCase().replace(/[._-]+/g, '-'), version: m[2] } : undefined;
  }
  if (ecosystem === 'nuget') {
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:@([A-Za-z0-9.+-]+))?$/.exec(s);
    return m ? { ecosystem, name: m[1].toLowerCase(), version: m[2] } : undefined;
  }
  // OCI: the repository without tag/digest is the name; docker.io defaults are made explicit.
  const m = /^((?:[a-zA-Z0-9.-]+(?::\d+)?\/)?[a-z0-9._/-]+?)(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(sha256:[0-9a-f]{64}))?$/.exec(s);
  if (!m) return undefined;
  let name = m[1];
  const first = name.split('/')[0];
  if (!name.includes('/') || !(first.includes('.') || first.includes(':') || first === 'localhost')) name = `docker.io/${name.includes('/') ? name : `library/${name}`}`;
  return { ecosystem, name, version: m[3] ?? m[2] };
}
