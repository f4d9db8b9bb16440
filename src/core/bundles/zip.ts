/**
 * A small zip reader (store and deflate, no zip64) for MCP bundles, with node:zlib. A bundle comes
 * from anywhere, so the reader refuses before writing anything: entry names that would land outside
 * the target folder (absolute, `..`, drive letters, backslashes — "zip slip"), symbolic links, more
 * entries or more bytes than a bundle needs (zip bombs; sizes are checked while inflating, not
 * trusted from the headers), and duplicate names.
 */
import * as path from 'node:path';
import { inflateRawSync } from 'node:zlib';

export interface ZipLimits {
  readonly maxEntries: number;
  readonly maxTotalBytes: number;
}
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 20_000, maxTotalBytes: 512 * 1024 * 1024 };

export interface ZipEntry {
  /** Forward-slash relative path; directories end with `/`. */
  readonly name: string;
  readonly data: Buffer;
  /** Unix permission bits when the zip recorded them (`0o755` for executables). */
  readonly mode?: number;
}

export class ZipError extends Error {
  constructor(message: string) { super(message); this.name = 'ZipError'; }
}

/** Why `name` may not be unpacked, or undefined when it stays inside the target folder. */
export function unsafeEntryName(name: string): string | undefined {
  if (!name || name.includes('\0')) return 'an empty name or a NUL character';
  if (name.includes('\\')) return 'a backslash (a Windows path separator)';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split('/').some(part => part === '..')) return 'a ".." segment that leaves the folder';
  return undefined;
}

/** `dir/name`, checked to lie inside `dir` (a second line of defence after {@link unsafeEntryName}). */
export function entryTarget(dir: string, name: string): string {
  const root = path.resolve(dir);
  const target = path.resolve(root, name);
  if (target !== root && !target.startsWith(root + path.sep)) throw new ZipError(`"${name}" would be written outside ${root}.`);
  return target;
}

export function readZip(zip: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  // End of central directory: the last signature within the final 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new ZipError('not a zip file (no end of central directory).');
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new ZipError('zip64 archives are not supported.');
  if (count > limits.maxEntries) throw new ZipError(`it has ${count} entries (at most ${limits.maxEntries}).`);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== 0x02014b50) throw new ZipError('the central directory is damaged.');
    const madeBy = zip.readUInt16LE(offset + 4) >> 8;
    const flags = zip.readUInt16LE(offset + 8);
    const method = zip.readUInt16LE(offset + 10);
    const compressed = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLen = zip.readUInt16LE(offset + 28);
    const extraLen = zip.readUInt16LE(offset + 30);
    const commentLen = zip.readUInt16LE(offset + 32);
    const external = zip.readUInt32LE(offset + 38);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString(flags & 0x800 ? 'utf8' : 'latin1', offset + 46, offset + 46 + nameLen);
    offset += 46 + nameLen + extraLen + commentLen;
    const unsafe = unsafeEntryName(name);
    if (unsafe) throw new ZipError(`entry "${name}" has ${unsafe}.`);
    if (names.has(name)) throw new ZipError(`entry "${name}" appears twice.`);
    names.add(name);
    const unixMode = madeBy === 3 ? external >>> 16 : 0;
    if ((unixMode & 0o170000) === 0o120000) throw new ZipError(`entry "${name}" is a symbolic link.`);
    if (flags & 0x1) throw new ZipError(`entry "${name}" is encrypted.`);
    if (compressed === 0xffffffff || size === 0xffffffff) throw new ZipError('zip64 archives are not supported.');
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new ZipError(`entry "${name}" is damaged.`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    if (raw.length !== compressed) throw new ZipError(`entry "${name}" is cut short.`);
    const room = limits.maxTotalBytes - total;
    let data: Buffer;
    if (method === 0) data = raw;
    else if (method === 8) {
      try { data = inflateRawSync(raw, { maxOutputLength: Math.max(1, room) }); } catch { throw new ZipError(`entry "${name}" cannot be inflated or unpacks to more than ${limits.maxTotalBytes} bytes in all.`); }
    } else throw new ZipError(`entry "${name}" uses compression method ${method}.`);
    if (data.length !== size) throw new ZipError(`entry "${name}" does not have the size its header says.`);
    total += data.length;
    if (total > limits.maxTotalBytes) throw new ZipError(`it unpacks to more than ${limits.maxTotalBytes} bytes.`);
    entries.push({ name, data, ...(unixMode & 0o777 ? { mode: unixMode & 0o777 } : {}) });
  }
  return entries;
}
