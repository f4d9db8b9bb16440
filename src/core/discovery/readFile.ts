/**
 * Reads a discovered configuration file, bounded: another program (or a cloned repository) wrote it,
 * so it may be huge, a FIFO that never ends, a device, or a link to a file the repository wants the
 * host to read (`.mcp.json` → `~/.ssh/config`). A workspace file must stay inside its folder once
 * every link is followed; a user file may be a link (dotfile managers make them).
 */
import { constants, promises as fs } from 'node:fs';
import { isInside, realPath } from '../fsPaths';

/** Claude Code's `~/.claude.json` also holds its history and grows to a few MiB. */
export const MAX_DISCOVERY_FILE_BYTES = 4 * 1024 * 1024;

export type FileRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused'; readonly reason: 'outsideFolder' | 'notAFile' | 'tooLarge' | 'unreadable'; readonly detail?: string };

export async function readDiscoveryFile(file: string, folder?: string, maxBytes = MAX_DISCOVERY_FILE_BYTES): Promise<FileRead> {
  const real = await realPath(file);
  if (real === undefined) {
    // A link whose target is missing is still a link the repository planted: say so rather than "missing".
    const link = await fs.lstat(file).then(s => s.isSymbolicLink(), () => false);
    return link && folder !== undefined ? { kind: 'refused', reason: 'outsideFolder' } : { kind: 'missing' };
  }
  if (folder !== undefined) {
    const root = await realPath(folder);
    if (root === undefined || !isInside(real, root)) return { kind: 'refused', reason: 'outsideFolder' };
  }
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
  const flags = constants.O_RDONLY | (process.platform === 'win32' ? 0 : constants.O_NONBLOCK);
  let handle: fs.FileHandle;
  try { handle = await fs.open(real, flags); } catch (e) { return { kind: 'refused', reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code }; }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'refused', reason: 'notAFile' };
    if (stat.size > maxBytes) return { kind: 'refused', reason: 'tooLarge' };
    // The file may grow between stat and read: the buffer has slack, and one byte more than allowed to notice.
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, stat.size + 65_536) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return { kind: 'refused', reason: 'tooLarge' };
      // It grew by more than the slack since stat: read it again next time it changes.
      if (length === buf.length) return { kind: 'refused', reason: 'unreadable', detail: 'changing' };
    }
    return { kind: 'text', text: buf.subarray(0, length).toString('utf8') };
  } catch (e) {
    return { kind: 'refused', reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
