/** The mounts /proc/self/mountinfo lists (Linux): what the cgroup code and the sandbox's write rules read. */
import { readFileSync } from 'node:fs';

export interface Mount {
  /** The path inside its file system that is mounted (a bind mount's source; a cgroup namespace's root). */
  readonly root: string;
  readonly point: string;
  readonly type: string;
}

/** Undoes the octal escapes of mountinfo (`\040` is a space). */
const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

export function parseMountinfo(text: string): Mount[] {
  const out: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    const fields = left?.split(' ') ?? [];
    const type = right?.split(' ')[0];
    if (!type || fields.length < 5) continue;
    out.push({ root: unescape(fields[3]), point: unescape(fields[4]), type });
  }
  return out;
}

/** This process's /proc/self/mountinfo; undefined where there is none (not Linux, no /proc). */
export function readMountinfo(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try { return readFileSync('/proc/self/mountinfo', 'utf8'); } catch { return undefined; }
}
