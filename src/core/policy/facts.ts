/**
 * What a policy rule is matched against: the server's name, the program it runs (command, packages)
 * or the URL it reaches. Read twice: from the declaration as written (so a refused server is shown as
 * refused before anything runs) and from the resolved launch (variables substituted, the env file
 * read, the command found on PATH), which is what decides.
 */
import type { ResolvedLaunch, ServerDeclaration } from '../config/types';
import { programName, runnerPackages, type PackageRef } from './runners';
import { isSocketUrl, socketEndpoint } from '../config/socketUrl';

export interface ProgramFacts {
  readonly name: string;
  readonly kind: 'local' | 'remote';
  /** The command as written (or resolved), its bare program name, and the file it is on disk when known. */
  readonly command?: { readonly written: string; readonly program: string; readonly file?: string };
  readonly packages: readonly PackageRef[];
  /** The runner's flags or the environment may load other code or fetch from elsewhere: no package rule admits it. */
  readonly packagesUnsure: boolean;
  /** `https://host[:port]/path` normalised, or a socket's `unix:///path`; absent for a local server or a URL that does not parse. */
  readonly url?: string;
  /** Still holds `${…}` or an env file not read yet: an allow decision waits for the launch. */
  readonly unresolved: boolean;
}

/**
 * Variables that make a runner load code other than the package's, or fetch the package from another
 * registry than the one its name is meant for.
 */
const CODE_LOADING_ENV = /^(NODE_OPTIONS|NODE_PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|BASH_ENV|ENV|npm_config_.*|NPM_CONFIG_.*|YARN_.*|BUN_CONFIG_.*|UV_INDEX.*|UV_EXTRA_INDEX.*|UV_DEFAULT_INDEX|UV_FIND_LINKS|PIP_.*|PIPX_.*|NUGET_.*|DOCKER_HOST|DOCKER_CONFIG|CONTAINER_HOST)$/i;

const hasVariable = (s: string) => s.includes('${');

export function declarationFacts(decl: ServerDeclaration): ProgramFacts {
  if (decl.type !== 'stdio') {
    return { name: decl.name, kind: 'remote', packages: [], packagesUnsure: false, url: hasVariable(decl.url) ? undefined : normalUrl(decl.url), unresolved: hasVariable(decl.url) };
  }
  const envNames = Object.keys(decl.env).filter(k => decl.env[k] !== null);
  const { packages, unsure } = runnerPackages(decl.command, decl.args);
  return {
    name: decl.name,
    kind: 'local',
    command: { written: decl.command, program: programName(decl.command) },
    packages,
    // An env file may set NODE_OPTIONS and the like: known only at launch.
    packagesUnsure: unsure || envNames.some(k => CODE_LOADING_ENV.test(k)) || decl.envFile !== undefined,
    unresolved: hasVariable(decl.command) || decl.args.some(hasVariable) || decl.envFile !== undefined,
  };
}

/** `file`: where the resolved command is on disk (links followed), found by the caller. */
export function launchFacts(name: string, launch: ResolvedLaunch, file?: string): ProgramFacts {
  if (launch.type !== 'stdio') return { name, kind: 'remote', packages: [], packagesUnsure: false, url: normalUrl(launch.url.href), unresolved: false };
  const { packages, unsure } = runnerPackages(launch.command, launch.args);
  return {
    name,
    kind: 'local',
    command: { written: launch.command, program: programName(launch.command), file },
    packages,
    packagesUnsure: unsure || Object.keys(launch.env).some(k => CODE_LOADING_ENV.test(k)),
    unresolved: false,
  };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The URL as a server sees it: no user info, query or fragment; host lower case, punycode, without a
 * trailing dot; default port dropped; percent-encoded unreserved characters decoded in the path (so
 * `/%6Dcp` is `/mcp`).
 */
export function normalUrl(raw: string): string | undefined {
  // A socket server is its socket: `unix:///run/x.sock`, `pipe:///name` (lower case: Windows names ignore case).
  if (isSocketUrl(raw)) { try { return socketEndpoint(raw, 'win32').identity; } catch { return undefined; } }
  let u: URL;
  try { u = new URL(raw); } catch { return undefined; }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  const host = u.hostname.replace(/\.+$/, '');
  const pathname = u.pathname.replace(/%([0-9A-Fa-f]{2})/g, (m, h: string) => {
    const c = String.fromCharCode(parseInt(h, 16));
    return UNRESERVED.test(c) ? c : m.toUpperCase();
  });
  return `${u.protocol}//${host}${u.port ? `:${u.port}` : ''}${pathname}`;
}
