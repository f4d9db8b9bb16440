import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** An env file holds a few variables: anything larger is refused (a start never reads a whole disk image). */
export const ENV_FILE_MAX_BYTES = 256 * 1024;

/**
 * Reads an env file the one way both the start (resolve.ts) and the program identity (envFileContent.ts)
 * read it: opened non-blocking and read only when it is a regular file (a FIFO or device in a cloned
 * repository would otherwise hang whoever asks), and at most {@link ENV_FILE_MAX_BYTES}. Fails with an
 * errno-like `code` that {@link envFileReadError} words: `ENOTREG`, `EFBIG` or the system's own.
 */
export async function readEnvFileText(abs: string): Promise<string> {
  const file = await open(abs, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await file.stat();
    if (stat.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTREG' });
    if (stat.size > ENV_FILE_MAX_BYTES) throw Object.assign(new Error('too large'), { code: 'EFBIG' });
    // The size may grow between stat and read: read one byte past the bound to tell.
    const buffer = Buffer.alloc(ENV_FILE_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > ENV_FILE_MAX_BYTES) throw Object.assign(new Error('too large'), { code: 'EFBIG' });
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await file.close();
  }
}

/** Parses a dotenv file: `KEY=value`, optional `export `, quotes, `#` comments, `\n` in double quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2];
    const q = value[0];
    if ((q === '"' || q === "'") && value.lastIndexOf(q) > 0) {
      value = value.slice(1, value.lastIndexOf(q));
      if (q === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      const hash = value.indexOf(' #');
      if (hash >= 0) value = value.slice(0, hash);
      value = value.trim();
    }
    out[m[1]] = value;
  }
  return out;
}

/**
 * Why `abs` (the declared `envFile`, resolved against `base`) could not be read, in words with what to
 * do: a bare `ENOENT` says neither which path was tried nor that a relative one starts at the workspace.
 */
export function envFileReadError(declared: string, abs: string, base: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const where = declared === abs ? abs : `${abs} ("${declared}" resolved from ${base})`;
  const fix = 'correct "envFile" in the server\'s declaration or remove it';
  switch (code) {
    case 'ENOENT': case 'ENOTDIR': return `envFile ${where} does not exist: create it, or ${fix}.`;
    case 'EACCES': case 'EPERM': return `envFile ${where} could not be read: permission denied. Let your user read it, or ${fix}.`;
    case 'EISDIR': return `envFile ${where} is a folder, not a file: ${fix}.`;
    case 'ENOTREG': return `envFile ${where} is not a regular file (a pipe, socket or device would block the start): ${fix}.`;
    case 'EFBIG': return `envFile ${where} is larger than ${ENV_FILE_MAX_BYTES / 1024} KiB, more than an env file holds: ${fix}.`;
    default: return `envFile ${where} could not be read (${e instanceof Error ? e.message : String(e)}): ${fix}.`;
  }
}
