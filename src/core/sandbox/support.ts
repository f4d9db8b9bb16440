/** Whether this computer can run a sandboxed server, and if not, what to install. */
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';

export class SandboxUnavailableError extends Error {}

export interface SupportProbe {
  readonly platform: NodeJS.Platform;
  /** PATH of the editor's own environment: where srt looks for bwrap and socat. */
  readonly pathEnv: string | undefined;
  readonly ripgrep?: string;
  /**
   * Why a program found for srt to run on the host must not be run (undefined: it may). `strict` for bwrap and
   * socat, which must be root's alone when the editor is not root; ripgrep may be the editor's own (VS Code's).
   */
  readonly refused?: (file: string, strict: boolean) => string | undefined;
  /** srt's CLI script. */
  readonly cli: string;
}

/**
 * Where the programs srt runs outside the sandbox are, found on the editor's own PATH (Linux; empty elsewhere).
 * Written into the rules as absolute paths, so that srt never looks them up by name in the server's folder.
 */
export interface SandboxTools {
  readonly bwrap?: string;
  readonly socat?: string;
  readonly ripgrep?: string;
}

/** Throws {@link SandboxUnavailableError} saying what is missing and how to get it. */
export function checkSandboxSupport(probe: SupportProbe): SandboxTools {
  const how = ' Or allow this server to run unsandboxed (setting mcpHost.sandbox.allowUnsandboxed).';
  if (!existsSync(probe.cli)) throw new SandboxUnavailableError(`This server must run sandboxed, but the sandbox runtime is missing (${probe.cli}). Install it with npm install -g @anthropic-ai/sandbox-runtime (MCP Host then finds srt on PATH), or set mcpHost.sandbox.runtimePath to its dist/cli.js.${how}`);
  if (probe.platform === 'win32') throw new SandboxUnavailableError(`This server must run sandboxed, but Windows cannot sandbox local servers yet (macOS and Linux can).${how}`);
  if (probe.platform === 'darwin') {
    if (!isExecutable('/usr/bin/sandbox-exec')) throw new SandboxUnavailableError(`This server must run sandboxed, but /usr/bin/sandbox-exec is missing on this Mac.${how}`);
    return {};
  }
  if (probe.platform !== 'linux') throw new SandboxUnavailableError(`This server must run sandboxed, but ${probe.platform} cannot sandbox local servers (macOS and Linux can).${how}`);
  const refused: string[] = [];
  /** The first of `found` srt may run; the first refused one is told otherwise. */
  const pick = (found: readonly string[], strict: boolean) => {
    const ok = found.find(f => !probe.refused?.(f, strict));
    if (!ok && found.length) refused.push(`${found[0]}: ${probe.refused?.(found[0], strict)}`);
    return ok;
  };
  const tools = {
    bwrap: pick(onPath('bwrap', probe.pathEnv), true), socat: pick(onPath('socat', probe.pathEnv), true),
    ripgrep: pick(probe.ripgrep ? [probe.ripgrep].filter(isExecutable) : onPath('rg', probe.pathEnv), false),
  };
  if (refused.length) {
    throw new SandboxUnavailableError(`This server must run sandboxed, but MCP Host runs on the host only programs a sandboxed server cannot change, and refused ${refused.join('; ')}. ` +
      `Install bubblewrap and socat from your distribution (Debian/Ubuntu: sudo apt-get install bubblewrap socat) and start the server again.${how}`);
  }
  const missing = (['bwrap', 'socat', 'ripgrep'] as const).filter(t => !tools[t]).map(t => t === 'ripgrep' ? 'rg' : t);
  if (!missing.length) return tools;
  const pkgs = missing.map(m => m === 'bwrap' ? 'bubblewrap' : m === 'rg' ? 'ripgrep' : m);
  throw new SandboxUnavailableError(
    `This server must run sandboxed, but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed. ` +
    `Install ${pkgs.join(' and ')} (Debian/Ubuntu: sudo apt-get install ${pkgs.join(' ')}; Fedora: sudo dnf install ${pkgs.join(' ')}) and start the server again.${how}`);
}

/**
 * Every `program` in the absolute folders of `pathEnv`, in order (a relative one would depend on where srt
 * runs), by its real path: a link on the way (a profile's `bin`) is not followed again at each use.
 */
function onPath(program: string, pathEnv: string | undefined): string[] {
  const found = (pathEnv ?? '').split(path.delimiter).filter(dir => path.isAbsolute(dir))
    .map(dir => path.join(dir, program)).filter(isExecutable);
  return [...new Set(found.map(f => { try { return realpathSync(f); } catch { return f; } }))];
}

function isExecutable(file: string): boolean {
  try { accessSync(file, constants.X_OK); return statSync(file).isFile(); } catch { return false; }
}
