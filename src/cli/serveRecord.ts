/**
 * The record `mcp-host serve` leaves for `mcp-host call` (its gateway's address and a token), so that
 * repeated calls reuse the running servers. The record is a key to those servers, so it is kept where
 * only the user can read or replace it, and read only from there:
 * - a folder `mcp-host` of the user's runtime (or state) dir, a real directory (no link), owned by the
 *   user and 0700 (`serve` tightens its own folder to that; another owner's folder gets no record);
 * - the file 0600 and owned by the user, opened without following a link (O_NOFOLLOW, then checked on
 *   the open file: nothing can swap it between the check and the read);
 * - naming only `http://127.0.0.1:<port>/<path>/` and a live process.
 * A record that is not so is ignored: another local user could otherwise plant one and receive our calls
 * and their arguments, or read one and call our servers.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface ServeRecord { readonly pid: number; readonly url: string; readonly token: string }

/** Where the record of a `serve` for these declarations (and this workspace) is kept. */
export function serveFile(workspace: string, servers: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_RUNTIME_DIR || env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  const key = createHash('sha256').update(JSON.stringify({ workspace, servers })).digest('hex').slice(0, 32);
  return path.join(base, 'mcp-host', `serve-${key}.json`);
}

const uid = () => process.getuid?.();

/** Why `st` is no place or file for a record (another owner, a link, a wider mode); undefined when it is. */
export function recordStatProblem(st: fs.Stats, kind: 'folder' | 'file', owner = uid()): string | undefined {
  if (kind === 'folder' ? !st.isDirectory() : !st.isFile()) return `is not a ${kind === 'folder' ? 'directory' : 'regular file'}`;
  if (owner !== undefined && st.uid !== owner) return `belongs to another user (uid ${st.uid})`;
  const want = kind === 'folder' ? 0o700 : 0o600;
  if ((st.mode & 0o777) !== want) return `has mode ${(st.mode & 0o777).toString(8)}, not ${want.toString(8)}`;
  return undefined;
}

/** Writes the record; the reason when it cannot be kept safely (then `call` starts its own servers). */
export function writeRecord(file: string, record: ServeRecord): string | undefined {
  const dir = path.dirname(file);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    let st = fs.lstatSync(dir);
    // Our own folder with a wider mode (an older version, a umask) is tightened; anyone else's is left alone.
    if (st.isDirectory() && st.uid === (uid() ?? st.uid) && (st.mode & 0o777) !== 0o700) { fs.chmodSync(dir, 0o700); st = fs.lstatSync(dir); }
    const problem = recordStatProblem(st, 'folder');
    if (problem) return `${dir} ${problem}`;
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
    return undefined;
  } catch (e) { return e instanceof Error ? e.message : String(e); }
}

/** The record, if it is ours alone and names a live process on 127.0.0.1; undefined otherwise. */
export function readRecord(file: string): ServeRecord | undefined {
  let fd: number | undefined;
  try {
    if (recordStatProblem(fs.lstatSync(path.dirname(file)), 'folder')) return undefined;
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    if (recordStatProblem(fs.fstatSync(fd), 'file')) return undefined;
    const r = JSON.parse(fs.readFileSync(fd, 'utf8')) as Partial<ServeRecord>;
    if (typeof r.pid !== 'number' || typeof r.token !== 'string' || typeof r.url !== 'string') return undefined;
    if (!/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/$/.test(r.url)) return undefined;
    process.kill(r.pid, 0);
    return r as ServeRecord;
  } catch { return undefined; }
  finally { if (fd !== undefined) fs.closeSync(fd); }
}

/** Removes the record if it is still the one this process wrote. */
export function removeRecord(file: string, token: string): void {
  if (readRecord(file)?.token === token) fs.rmSync(file, { force: true });
}
