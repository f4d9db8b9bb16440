/** A JSON object (not null, not an array): what a server's or a file's `{…}` parses to. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
