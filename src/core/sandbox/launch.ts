/**
 * Maps a resolved stdio launch to the same server run under srt: `node cli.js --settings <rules> --
 * <command> <args…>`. stdio passes through srt untouched; srt exits with the server, and bubblewrap
 * (`--die-with-parent`) takes the server down when srt is killed, so stopping still ends the tree.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ResolvedLaunch, SandboxDeclaration, StdioDeclaration } from '../config/types';
import type { Logger } from '../logger';
import { hostPath, pathEntriesIn, refusedProgram } from './hostPath';
import { PlantGuard } from './plantGuard';
import { sandboxGaps } from './platformGaps';
import { SandboxRun } from './run';
import { runtimeFolders } from './reads';
import { buildRules, declaredWrites, rootPaths } from './rules';
import { checkSandboxSupport, SandboxUnavailableError, type SandboxTools } from './support';
import type { SandboxPort } from './types';

type StdioLaunch = Extract<ResolvedLaunch, { type: 'stdio' }>;

export interface SandboxRequest {
  readonly port: SandboxPort | undefined;
  readonly declaration: StdioDeclaration;
  readonly launch: StdioLaunch;
  readonly userHome: string;
  /** The server's roots (`file:` URIs); they become its writable folders. */
  readonly roots: readonly string[];
  readonly logger: Logger;
  readonly platform?: NodeJS.Platform;
}

export interface SandboxedLaunch {
  readonly launch: StdioLaunch;
  /** The root folders the rules were written for; undefined when the server runs unsandboxed. */
  readonly roots?: readonly string[];
  /** Made right before the spawn, finished after the exit: the server's temp folder and, on Linux, the plant guard (run.ts). */
  readonly run?: () => SandboxRun;
}

/** Whether the declaration or the embedder's setting asks for a sandbox. */
export function wantsSandbox(decl: StdioDeclaration, port: Pick<SandboxPort, 'sandboxAll'> | undefined): boolean {
  return decl.sandbox !== undefined || (port?.sandboxAll() ?? false);
}

/**
 * The launch to run. Throws {@link SandboxUnavailableError} when a sandbox is asked for and this
 * computer cannot provide one, unless the user allowed this server to run unsandboxed.
 */
export async function sandboxLaunch(req: SandboxRequest): Promise<SandboxedLaunch> {
  const { port, declaration: decl, launch } = req;
  if (!wantsSandbox(decl, port)) return { launch };
  const name = decl.name;
  // No runtime: nothing the user could allow instead (allowUnsandboxed is the embedder's setting).
  if (!port) throw new SandboxUnavailableError('This server must run sandboxed, but this application provides no sandbox runtime.');
  const roots = rootPaths(req.roots);
  const id = storageName(name, port.storageScope?.(name) ?? (port.mayWiden(name) ? 'user' : 'workspace'));
  const dataDir = path.join(port.storageDir, 'sandbox-data', id);
  // Short: srt's bridge sockets live in it, and a socket's path may not exceed 107 bytes.
  const tempDir = path.join(os.tmpdir(), `mcp-host-${randomBytes(6).toString('hex')}`);
  // What srt and its helpers look programs up on: nothing from a folder this server may write (hostPath.ts),
  // its declared allowWrite folders included (also where they are dropped below: the list only narrows).
  const untrusted = [...roots, dataDir, tempDir, ...declaredWrites(decl.sandbox, req.userHome)];
  const uid = process.getuid?.();
  const toolPath = hostPath(process.env.PATH, untrusted);
  // srt's own PATH: of those, for an editor that is not root, root's folders alone.
  const editorPath = hostPath(toolPath, [], { uid });
  let tools: SandboxTools;
  try {
    // Looked up outside the server's folders, pinned by real path, and run only if nothing but root can change them.
    tools = checkSandboxSupport({
      platform: req.platform ?? process.platform, pathEnv: toolPath, ripgrep: port.ripgrep, cli: port.cli,
      refused: (file, strict) => refusedProgram(file, untrusted, strict, { uid }),
    });
  } catch (e) {
    if (e instanceof SandboxUnavailableError && port.allowUnsandboxed(name)) {
      req.logger.warn(`Running unsandboxed, as allowed in settings: ${e.message}`);
      return { launch };
    }
    throw e;
  }
  // One file per start: two windows starting the same server at once each get the rules of their own roots.
  const rulesDir = path.join(port.storageDir, 'sandbox-rules');
  const rulesFile = path.join(rulesDir, `${id}.${path.basename(tempDir).slice('mcp-host-'.length)}.json`);
  const writable = roots.filter(r => port.mayWrite?.(name, r) ?? true);
  const readOnly = roots.filter(r => !writable.includes(r));
  if (readOnly.length) req.logger.info(`Sandboxed: these roots are read-only for it (writable are workspace folders inside what you opened and roots from your user settings): ${readOnly.join(', ')}`);
  const declared = decl.sandbox && !port.mayWiden(name) ? narrowed(decl.sandbox, req.logger) : decl.sandbox;
  const pathEnv = pathOf(launch.env);
  // srt's seccomp helper runs inside the sandbox, from srt's package folder.
  const srtPackage = path.dirname(path.dirname(port.cli));
  const withheldEnv = Object.keys(port.runtimeEnv ?? {}).filter(k => !(k in launch.env));
  const rules = buildRules({
    declared, userHome: req.userHome, roots: writable, readRoots: readOnly, dataDir,
    tempDir, protectedPaths: port.protectedPaths, defaultAllowedDomains: port.defaultAllowedDomains(), tools,
    runtimeFolders: [...runtimeFolders(launch.command, { pathEnv, userHome: req.userHome, untrusted: [...roots, dataDir, tempDir], wide: port.mayWiden(name) }), srtPackage], withheldEnv, platform: req.platform, editorPathEnv: process.env.PATH,
    onRefused: (folder, why, stillReadable) => req.logger.warn(stillReadable
      ? `Sandboxed: ${folder} is not writable in the sandbox: ${why}.`
      : `Sandboxed: ${folder} is left out of the sandbox (neither readable nor writable): ${why}.`),
  });
  const held = pathEntriesIn(process.env.PATH, rules.filesystem.allowWrite);
  if (held.length) req.logger.warn(`Sandboxed: ${held.join(', ')} ${held.length > 1 ? 'are' : 'is'} read-only in the sandbox: ${held.length > 1 ? 'they are' : 'it is'} on the editor's PATH, and a program planted there would run outside the sandbox.`);
  await mkdir(dataDir, { recursive: true });
  await mkdir(rulesDir, { recursive: true });
  await pruneRules(rulesDir, id);
  await writeFile(rulesFile, JSON.stringify(rules, null, 2), { mode: 0o600 });
  req.logger.info(`Sandboxed: writes only to ${rules.filesystem.allowWrite.join(', ')}; network only to ${rules.network.allowedDomains.join(', ') || 'nothing'} (rules: ${rulesFile})`);
  const gaps = sandboxGaps(req.platform ?? process.platform);
  if (gaps) req.logger.warn(gaps);
  // Package managers write caches under the home folder, which is read-only here: give them the data folder.
  // The temp folder wins over the declaration's: any other is unreadable in the sandbox. CLAUDE_CODE_TMPDIR is srt's name for it.
  const temp = { TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir, CLAUDE_CODE_TMPDIR: tempDir };
  const env: Record<string, string> = { npm_config_cache: path.join(dataDir, 'npm-cache'), XDG_CACHE_HOME: path.join(dataDir, 'cache'), ...launch.env, ...temp, ...port.runtimeEnv };
  const hostSide = splitHostSide(env, { ...temp, ...port.runtimeEnv }, editorPath);
  // bubblewrap's mounts are fixed at start; sandbox-exec matches the plantable names by pattern (plantable.ts).
  const guarded = rules.filesystem.allowWrite.filter(w => w !== dataDir && w !== tempDir);
  const guard = (req.platform ?? process.platform) === 'linux' && guarded.length ? () => new PlantGuard({
    roots: guarded, held: rules.filesystem.denyWrite, unwatched: [dataDir, tempDir],
    quarantineDir: path.join(port.storageDir, 'sandbox-quarantine', id, new Date().toISOString().replace(/[:.]/g, '-')),
  }) : undefined;
  return {
    launch: { type: 'stdio', command: port.runtime, args: [port.cli, '--settings', rulesFile, '--', ...hostSide.inner, launch.command, ...launch.args], env: hostSide.outer, cwd: launch.cwd },
    roots, run: () => SandboxRun.start(tempDir, guard),
  };
}

/** The declaration's denies without its allowances (for declarations that may not widen the sandbox). */
function narrowed(d: SandboxDeclaration, logger: Logger): SandboxDeclaration {
  if (d.filesystem.allowWrite.length || d.filesystem.allowRead?.length || d.network.allowedDomains !== undefined) {
    logger.warn('Ignored the declaration\'s sandbox allowWrite, allowRead and allowedDomains: only servers declared in user settings may widen the sandbox (its denies apply).');
  }
  return { filesystem: { ...d.filesystem, allowWrite: [], allowRead: [] }, network: { deniedDomains: d.network.deniedDomains } };
}

/**
 * A file name for the server that no name can turn into a path, unique per (declarer, name): a workspace
 * server that takes a user server's name gets another data folder (its npm cache, its XDG cache), and so
 * does the same name in another workspace. A user server keeps the name-only key it always had.
 */
function storageName(name: string, scope: string): string {
  const readable = name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_').slice(0, 40);
  const key = scope === 'user' ? name : `${scope}\0${name}`;
  return `${readable}-${createHash('sha256').update(key).digest('hex').slice(0, scope === 'user' ? 10 : 16)}`;
}

/** Rules files of earlier starts of `id` older than a day (a start reads its own at once; a crash leaves one behind). */
async function pruneRules(dir: string, id: string): Promise<void> {
  const before = Date.now() - 24 * 60 * 60_000;
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter(n => n.startsWith(`${id}.`) && n.endsWith('.json')).map(async n => {
    const file = path.join(dir, n);
    const st = await lstat(file).catch(() => undefined);
    if (st && st.mtimeMs < before) await rm(file, { force: true });
  }));
}

function pathOf(env: Readonly<Record<string, string>>): string | undefined {
  const key = Object.keys(env).find(k => k.toUpperCase() === 'PATH');
  return key ? env[key] : process.env.PATH;
}

/**
 * srt (a node process), the shell it starts bubblewrap with, bubblewrap and socat run outside the sandbox,
 * and every variable of their environment is one they may honour: PATH (which `bwrap` runs), Node's
 * (`NODE_OPTIONS=--require …`, `NODE_COMPILE_CACHE`, which loads code a server forged), the loader's, the
 * shell's, and whatever a later version reads. So nothing a declaration sets reaches them (a workspace's env
 * file, or a file the server wrote in its root for its next start): srt's environment is the editor's own
 * (`outer`), and every variable the server's differs in travels under another name (`MCP_HOST_ENV_<name>`)
 * to a shell inside the sandbox, which sets it under its own name — or unsets what the server must not get —
 * and then runs the server's command (`inner`). Values stay in the environment, never on a command line,
 * where other local users could read them.
 */
function splitHostSide(env: Readonly<Record<string, string>>, ours: Readonly<Record<string, string>>, editorPath: string): { outer: Record<string, string>; inner: string[] } {
  const outer: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith(INNER_PREFIX) && !k.startsWith('BASH_FUNC_')) outer[k] = v;
  // srt runs in the server's working folder (a workspace folder) and finds which and bash by name: an empty or
  // relative entry of the editor's PATH (`:/usr/bin`, `.`, `node_modules/.bin`) is that folder, and an entry
  // inside a root is one the server may have written (hostPath.ts).
  if (outer.PATH !== undefined) outer.PATH = editorPath;
  Object.assign(outer, ours);
  const lines: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (k in ours || outer[k] === v) continue;
    // A name with `=` (or NUL) is two things at once: `NODE_OPTIONS=--require x --title` is written out as
    // `NODE_OPTIONS=…`, which every program reads as NODE_OPTIONS. Dropped (no program can read it as named).
    if (/[=\0]/.test(k)) continue;
    // A name no shell can set (npm's `npm_config_//host/:_authToken`) is no name a host program reads either,
    // except bash's exported functions, which a bash that is /bin/sh would run in srt's shell: those are dropped.
    if (!SHELL_NAME.test(k)) { if (!k.startsWith('BASH_FUNC_')) outer[k] = v; continue; }
    outer[`${INNER_PREFIX}${k}`] = v;
    lines.push(`export ${k}="$${INNER_PREFIX}${k}"; unset ${INNER_PREFIX}${k}`);
  }
  for (const k of Object.keys(outer)) {
    if (k in env || k in ours || k.startsWith(INNER_PREFIX)) continue;
    if (SHELL_NAME.test(k)) lines.push(`unset ${k}`);
  }
  return { outer, inner: lines.length ? ['/bin/sh', '-c', `${lines.join('; ')}; exec "$@"`, 'sh'] : [] };
}

const INNER_PREFIX = 'MCP_HOST_ENV_';
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
