/**
 * HTTP servers reached over a local socket, written as VS Code's `mcp.json` writes them:
 * `unix:///path/to.sock#/mcp` (a unix domain socket) and `pipe:///name#/mcp` (a Windows named pipe,
 * `\\.\pipe\name`). The URL's path is the socket, its fragment the request path (`/` when absent).
 *
 * A socket is a local program's door, like a stdio command: the path must be absolute, without `..`
 * segments, NUL or a query, and (when connecting) a socket that exists. The checks run on the text as
 * written: WHATWG `URL` would quietly resolve `/run/../etc/x.sock` to `/etc/x.sock`.
 */
import * as fs from 'node:fs/promises';

export type SocketKind = 'unix' | 'pipe';

export interface SocketEndpoint {
  readonly kind: SocketKind;
  /** What node connects to: the unix socket's path, or `\\.\pipe\name`. */
  readonly socketPath: string;
  /** The HTTP request path on that socket (the URL's fragment). */
  readonly requestPath: string;
  /** `unix:///path` or `pipe:///name`: the server's identity for policy rules and input bindings. */
  readonly identity: string;
}

export class SocketUrlError extends Error {}

const SOCKET_URL = /^(unix|pipe):(?:\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/i;

/** Whether `url` names a socket (`unix:` or `pipe:`), whatever else is wrong with it. */
export function isSocketUrl(url: string | URL): boolean {
  return /^(unix|pipe):/i.test(typeof url === 'string' ? url.trim() : url.protocol);
}

function decode(part: string, what: string): string {
  try { return decodeURIComponent(part); } catch { throw new SocketUrlError(`${what} has a broken %-escape`); }
}

/**
 * The socket and request path of a `unix:`/`pipe:` URL, or a {@link SocketUrlError} saying what to
 * write instead. `platform` decides where a named pipe lives (only Windows has them).
 */
export function socketEndpoint(raw: string, platform: NodeJS.Platform = process.platform): SocketEndpoint {
  const m = SOCKET_URL.exec(raw.trim());
  if (!m) throw new SocketUrlError(`"${raw}" is not a socket URL: write unix:///absolute/path.sock#/mcp or pipe:///name#/mcp`);
  const kind = m[1].toLowerCase() as SocketKind;
  const [, , authority, rawPath, query, fragment] = m;
  const example = kind === 'unix' ? 'unix:///run/user/1000/server.sock#/mcp' : 'pipe:///my-server#/mcp';
  if (authority) throw new SocketUrlError(`the socket URL has a host ("${authority}"): a ${kind}: URL names an absolute path after three slashes, e.g. ${example}`);
  if (query) throw new SocketUrlError(`the socket URL has a query: put the request path and its query after "#", e.g. ${example}`);
  const path = decode(rawPath, 'the socket path');
  const request = fragment ? decode(fragment.slice(1), 'the request path') : '/';
  if (path.includes('\0') || request.includes('\0')) throw new SocketUrlError('the socket URL holds a NUL character');
  if (!path.startsWith('/') || path === '/') throw new SocketUrlError(`the socket path must be absolute, e.g. ${example}`);
  if (path.split(/[/\\]/).some(s => s === '..' || s === '.')) throw new SocketUrlError(`the socket path "${path}" has "." or ".." segments: write the socket's own absolute path`);
  if (!request.startsWith('/')) throw new SocketUrlError(`the request path after "#" must start with "/", e.g. ${example}`);
  if (/[\r\n]/.test(request) || /[\r\n]/.test(path)) throw new SocketUrlError('the socket URL holds a line break');
  if (kind === 'pipe') {
    if (platform !== 'win32') throw new SocketUrlError('named pipes (pipe:) exist only on Windows: on this system use a unix socket, unix:///path/to.sock#/mcp');
    const name = path.slice(1);
    if (!name || /^[/\\]/.test(name)) throw new SocketUrlError(`"${path}" is not a pipe name: write pipe:///name#/mcp`);
    return { kind, socketPath: `\\\\.\\pipe\\${name.replace(/\//g, '\\')}`, requestPath: request, identity: `pipe://${path.toLowerCase()}` };
  }
  // One spelling per socket: `/run//x.sock` and `//run/x.sock` are the kernel's `/run/x.sock`, and a policy rule names that.
  const own = path.replace(/\/{2,}/g, '/');
  return { kind, socketPath: own, requestPath: request, identity: `unix://${own}` };
}

/** The URL the HTTP transport is given for a socket server: only the request path matters, the socket is chosen by the fetch. */
export function transportUrlOf(endpoint: SocketEndpoint): URL {
  return new URL(`http://localhost${endpoint.requestPath}`);
}

/** The endpoint's socket is there and is a socket (unix); a clear error otherwise. A named pipe cannot be checked before connecting. */
export async function checkSocket(endpoint: SocketEndpoint): Promise<void> {
  if (endpoint.kind !== 'unix') return;
  let st;
  try { st = await fs.lstat(endpoint.socketPath); } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SocketUrlError(code === 'ENOENT'
      ? `no socket at ${endpoint.socketPath}: is the server running and listening there?`
      : `cannot reach the socket ${endpoint.socketPath} (${code ?? String(e)})`);
  }
  if (st.isSocket()) {
    // A linked folder on the way (`/var/run` → `/run`) would reach a socket the policy and bindings know by another path.
    const real = await fs.realpath(endpoint.socketPath).catch(() => endpoint.socketPath);
    if (real !== endpoint.socketPath) throw new SocketUrlError(`the socket path ${endpoint.socketPath} goes through a linked folder: name the socket by its own path, unix://${real}`);
    return;
  }
  throw new SocketUrlError(`${endpoint.socketPath} is not a socket (it is a ${st.isSymbolicLink() ? 'symbolic link, and a link is not followed: name the socket itself' : st.isDirectory() ? 'folder' : 'file'}): name the socket the server listens on`);
}
