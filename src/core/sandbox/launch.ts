/**
 * Maps a resolved stdio launch to the same server run under srt: `node cli.js --settings <rules> --
 * <command> <args…>`. stdio passes through srt untouched; srt exits with the server, and bubblewrap
 * (`--die-with-parent`) takes the server down when srt is killed, so stopping still ends the tree.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ResolvedLaunch, SandboxDeclaration, StdioDeclaration } from '../config/types';
import type { Logger } from '../logger';
import { runtimeFolders } from './reads';
import { buildRules, rootPaths } from './rules';
import { checkSandboxSupport, SandboxUnavailableError } from './support';
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
  try {
    if (!port) throw new SandboxUnavailableError('This server must run sandboxed, but this application provides no sandbox runtime.');
    checkSandboxSupport({ platform: req.platform ?? process.platform, pathEnv: pathOf(launch.env), ripgrep: port.ripgrep, cli: port.cli });
  } catch (e) {
    if (e instanceof SandboxUnavailableError && port?.allowUnsandboxed(name)) {
      req.logger.warn(`Running unsandboxed, as allowed in settings: ${e.message}`);
      return { launch };
    }
    throw e;
  }
  const id = storageName(name);
  const dataDir = path.join(port.storageDir, 'sandbox-data', id);
  const rulesFile = path.join(port.storageDir, 'sandbox-rules', `${id}.json`);
  const roots = rootPaths(req.roots);
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
    protectedPaths: port.protectedPaths, defaultAllowedDomains: port.defaultAllowedDomains(), ripgrep: port.ripgrep,
    runtimeFolders: [...runtimeFolders(launch.command, pathEnv, req.userHome), srtPackage], withheldEnv, platform: req.platform,
    onRefused: (folder, why) => req.logger.warn(`Sandboxed: ${folder} is left out of the sandbox (neither readable nor writable): ${why}.`),
  });
  await mkdir(dataDir, { recursive: true });
  await mkdir(path.dirname(rulesFile), { recursive: true });
  await writeFile(rulesFile, JSON.stringify(rules, null, 2), { mode: 0o600 });
  req.logger.info(`Sandboxed: writes only to ${rules.filesystem.allowWrite.join(', ')}; network only to ${rules.network.allowedDomains.join(', ') || 'nothing'} (rules: ${rulesFile})`);
  // Package managers write caches under the home folder, which is read-only here: give them the data folder.
  const env: Record<string, string> = { npm_config_cache: path.join(dataDir, 'npm-cache'), XDG_CACHE_HOME: path.join(dataDir, 'cache'), ...launch.env, ...port.runtimeEnv };
  return {
    launch: { type: 'stdio', command: port.runtime, args: [port.cli, '--settings', rulesFile, '--', launch.command, ...launch.args], env, cwd: launch.cwd },
    roots,
  };
}

/** The declaration's denies without its allowances (for declarations that may not widen the sandbox). */
function narrowed(d: SandboxDeclaration, logger: Logger): SandboxDeclaration {
  if (d.filesystem.allowWrite.length || d.filesystem.allowRead?.length || d.network.allowedDomains !== undefined) {
    logger.warn('Ignored the declaration\'s sandbox allowWrite, allowRead and allowedDomains: only servers declared in user settings may widen the sandbox (its denies apply).');
  }
  return { filesystem: { ...d.filesystem, allowWrite: [], allowRead: [] }, network: { deniedDomains: d.network.deniedDomains } };
}

/** A file name for the server that no name can turn into a path, unique per name. */
function storageName(name: string): string {
  const readable = name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_').slice(0, 40);
  return `${readable}-${createHash('sha256').update(name).digest('hex').slice(0, 10)}`;
}

function pathOf(env: Readonly<Record<string, string>>): string | undefined {
  const key = Object.keys(env).find(k => k.toUpperCase() === 'PATH');
  return key ? env[key] : process.env.PATH;
}
