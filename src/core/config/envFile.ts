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
    default: return `envFile ${where} could not be read (${e instanceof Error ? e.message : String(e)}): ${fix}.`;
  }
}
