/**
 * What an imported declaration will write, field by field, and which fields can make a server run
 * code other than its command: the import preview shows all of it, so a configuration file (often
 * one that came with a cloned repository) cannot slip `NODE_OPTIONS=--require …` past the user.
 * Flagged declarations are not selected by default; the user checks them, next to the warning.
 * Pure, except {@link defaultImportTarget}, which resolves paths.
 */
import { isInside, realPath } from '../fsPaths';
import { isSecretEntry } from './secrets';

export type ImportRisk =
  /** The variable makes the program (or the shell, git, a runtime) load and run other code. */
  | 'loadsCode'
  /** The variable changes where programs, modules or libraries are looked up. */
  | 'searchPath'
  /** The variable changes where packages come from, the proxy, or how TLS certificates are checked. */
  | 'network'
  /** `cwd`: `npx`, `python -m`, `uvx` and the like pick up code and configuration from this folder. */
  | 'workingDirectory'
  /** `envFile`: its variables are not part of the declaration, so they cannot be checked here. */
  | 'envFile';

export interface ReviewedField {
  /** `command`, `args`, `env.NODE_OPTIONS`, `headers.Authorization`, `cwd`, … */
  readonly field: string;
  /** The value as it will be written; credentials the conversion missed are masked. */
  readonly value: string;
  readonly risk?: ImportRisk;
}

const LOADS_CODE = new Set([
  'NODE_OPTIONS', 'NODE_REPL_EXTERNAL_MODULE', 'ELECTRON_RUN_AS_NODE',
  'LD_PRELOAD', 'LD_AUDIT', 'GCONV_PATH',
  'PYTHONSTARTUP', 'PYTHONINSPECT', 'PYTHONBREAKPOINT', 'PERL5OPT', 'PERL5DB', 'RUBYOPT',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS',
  'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT',
  'EDITOR', 'VISUAL', 'PAGER', 'GIT_EDITOR', 'GIT_PAGER',
  'DOTNET_STARTUP_HOOKS', 'COR_ENABLE_PROFILING', 'COR_PROFILER', 'COR_PROFILER_PATH', 'CORECLR_ENABLE_PROFILING', 'CORECLR_PROFILER', 'CORECLR_PROFILER_PATH',
  'COMSPEC',
]);
const LOADS_CODE_PREFIXES = ['DYLD_', 'GIT_CONFIG_KEY_', 'GIT_CONFIG_VALUE_', 'CORECLR_PROFILER_PATH_'];
const SEARCH_PATH = new Set([
  'PATH', 'PATHEXT', 'LD_LIBRARY_PATH', 'NODE_PATH', 'PYTHONPATH', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONSAFEPATH',
  'PERL5LIB', 'PERLLIB', 'RUBYLIB', 'GEM_HOME', 'GEM_PATH', 'BUNDLE_GEMFILE', 'CLASSPATH', 'GOPATH', 'GOFLAGS',
  'VIRTUAL_ENV', 'CONDA_PREFIX', 'UV_PROJECT_ENVIRONMENT', 'UV_PYTHON', 'UV_CONFIG_FILE', 'PIP_CONFIG_FILE', 'NPM_CONFIG_USERCONFIG', 'NPM_CONFIG_GLOBALCONFIG', 'NPM_CONFIG_PREFIX',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'HOME', 'USERPROFILE', 'APPDATA',
]);
const NETWORK = new Set([
  'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'PYTHONHTTPSVERIFY',
  'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY',
  'UV_INDEX', 'UV_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_EXTRA_INDEX_URL', 'UV_FIND_LINKS', 'UV_INSECURE_HOST',
  'PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'PIP_FIND_LINKS', 'PIP_TRUSTED_HOST',
  'YARN_NPM_REGISTRY_SERVER', 'YARN_REGISTRY', 'BUN_CONFIG_REGISTRY', 'COREPACK_NPM_REGISTRY', 'GOPROXY', 'GOINSECURE', 'GONOSUMDB', 'GONOSUMCHECK', 'GOSUMDB',
  'DENO_TLS_CA_STORE', 'DENO_CERT',
]);
const NETWORK_PREFIXES = ['NPM_CONFIG_'];

/**
 * Why an environment variable is dangerous in a server's declaration, or undefined. Names compare
 * case-insensitively (Windows environments do, and npm reads `npm_config_*` in any case).
 */
export function dangerousEnvVariable(name: string): ImportRisk | undefined {
  const n = name.toUpperCase();
  if (LOADS_CODE.has(n) || LOADS_CODE_PREFIXES.some(p => n.startsWith(p))) return 'loadsCode';
  if (SEARCH_PATH.has(n)) return 'searchPath';
  if (NETWORK.has(n) || NETWORK_PREFIXES.some(p => n.startsWith(p))) return 'network';
  return undefined;
}

/** Every field of `declaration` in a fixed order (what it runs first), with the risky ones marked. */
export function reviewDeclaration(declaration: Readonly<Record<string, unknown>>): ReviewedField[] {
  const out: ReviewedField[] = [];
  const order = ['type', 'command', 'args', 'url', 'headers', 'env', 'envFile', 'cwd'];
  const keys = [...order.filter(k => k in declaration), ...Object.keys(declaration).filter(k => !order.includes(k))];
  for (const key of keys) {
    const value = declaration[key];
    if (value === undefined) continue;
    if ((key === 'env' || key === 'headers') && isRecord(value)) {
      for (const [name, v] of Object.entries(value)) {
        const text = show(v);
        out.push({
          field: `${key}.${name}`,
          value: isSecretEntry(name, text) ? mask(text) : text,
          ...(key === 'env' && dangerousEnvVariable(name) ? { risk: dangerousEnvVariable(name) } : {}),
        });
      }
      continue;
    }
    if (key === 'args' && Array.isArray(value)) {
      out.push({ field: key, value: value.map(a => quote(show(a))).join(' ') });
      continue;
    }
    const risk: ImportRisk | undefined = key === 'cwd' ? 'workingDirectory' : key === 'envFile' ? 'envFile' : undefined;
    out.push({ field: key, value: show(value), ...(risk ? { risk } : {}) });
  }
  return out;
}

/** The fields of `declaration` that need the user's attention. */
export function importRisks(declaration: Readonly<Record<string, unknown>>): ReviewedField[] {
  return reviewDeclaration(declaration).filter(f => f.risk);
}

/**
 * Where servers imported from `file` go unless the user says otherwise: a file inside a workspace
 * folder — as written or once symbolic links are resolved — belongs to that workspace, so its
 * servers go to the workspace's settings (which start only in a trusted workspace) and never reach
 * every other workspace through the user's settings.
 */
export async function defaultImportTarget(file: string, workspaceFolders: readonly string[]): Promise<'workspace' | 'user'> {
  if (workspaceFolders.some(f => isInside(file, f))) return 'workspace';
  const real = await realPath(file);
  if (!real) return 'user';
  const folders = await Promise.all(workspaceFolders.map(f => realPath(f)));
  return folders.some(f => f !== undefined && isInside(real, f)) ? 'workspace' : 'user';
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
}

function quote(a: string): string {
  return /[\s"']/.test(a) || a === '' ? JSON.stringify(a) : a;
}

/** Keeps a `Bearer ` scheme and the first characters, enough to tell two values apart. */
function mask(v: string): string {
  const m = /^(\S+\s+)?(.*)$/s.exec(v)!;
  const scheme = m[1] && /^(Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key)\s+$/i.test(m[1]) ? m[1] : '';
  const secret = scheme ? m[2] : v;
  return `${scheme}${secret.slice(0, Math.min(4, Math.floor(secret.length / 4)))}••••`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
