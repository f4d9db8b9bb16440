/**
 * What a MIME type means for showing a resource: editor language, file extension (which picks the
 * file icon and VS Code's image preview), whether it is text, an image or other binary data.
 * No `vscode` import: unit-tested in plain Node.
 */

export type ContentKind = 'text' | 'image' | 'binary';

interface MimeInfo { readonly language?: string; readonly ext: string }

const TABLE: Record<string, MimeInfo> = {
  'text/plain': { language: 'plaintext', ext: 'txt' },
  'text/markdown': { language: 'markdown', ext: 'md' },
  'text/x-markdown': { language: 'markdown', ext: 'md' },
  'text/html': { language: 'html', ext: 'html' },
  'text/css': { language: 'css', ext: 'css' },
  'text/csv': { ext: 'csv' },
  'text/javascript': { language: 'javascript', ext: 'js' },
  'application/javascript': { language: 'javascript', ext: 'js' },
  'text/typescript': { language: 'typescript', ext: 'ts' },
  'application/typescript': { language: 'typescript', ext: 'ts' },
  'application/json': { language: 'json', ext: 'json' },
  'application/x-ndjson': { ext: 'jsonl' },
  'application/xml': { language: 'xml', ext: 'xml' },
  'text/xml': { language: 'xml', ext: 'xml' },
  'application/yaml': { language: 'yaml', ext: 'yaml' },
  'application/x-yaml': { language: 'yaml', ext: 'yaml' },
  'text/yaml': { language: 'yaml', ext: 'yaml' },
  'text/x-yaml': { language: 'yaml', ext: 'yaml' },
  'application/toml': { ext: 'toml' },
  'application/sql': { language: 'sql', ext: 'sql' },
  'text/x-python': { language: 'python', ext: 'py' },
  'text/x-script.python': { language: 'python', ext: 'py' },
  'text/x-sh': { language: 'shellscript', ext: 'sh' },
  'application/x-sh': { language: 'shellscript', ext: 'sh' },
  'text/x-rust': { language: 'rust', ext: 'rs' },
  'text/x-go': { language: 'go', ext: 'go' },
  'text/x-java': { language: 'java', ext: 'java' },
  'text/x-java-source': { language: 'java', ext: 'java' },
  'text/x-c': { language: 'c', ext: 'c' },
  'text/x-c++': { language: 'cpp', ext: 'cpp' },
  'text/x-csharp': { language: 'csharp', ext: 'cs' },
  'text/x-ruby': { language: 'ruby', ext: 'rb' },
  'text/x-php': { language: 'php', ext: 'php' },
  'text/x-diff': { language: 'diff', ext: 'diff' },
  'text/x-patch': { language: 'diff', ext: 'patch' },
  'image/png': { ext: 'png' },
  'image/jpeg': { ext: 'jpg' },
  'image/gif': { ext: 'gif' },
  'image/webp': { ext: 'webp' },
  'image/svg+xml': { ext: 'svg' },
  'image/bmp': { ext: 'bmp' },
  'image/x-icon': { ext: 'ico' },
  'image/vnd.microsoft.icon': { ext: 'ico' },
  'image/avif': { ext: 'avif' },
  'application/pdf': { ext: 'pdf' },
  'application/zip': { ext: 'zip' },
  'application/gzip': { ext: 'gz' },
  'application/octet-stream': { ext: 'bin' },
  'audio/mpeg': { ext: 'mp3' },
  'audio/wav': { ext: 'wav' },
  'audio/ogg': { ext: 'ogg' },
  'video/mp4': { ext: 'mp4' },
  'video/webm': { ext: 'webm' },
};

/** Images VS Code's built-in image preview shows (its `filenamePattern`). */
const PREVIEWABLE_IMAGES = new Set(['png', 'jpg', 'gif', 'webp', 'svg', 'bmp', 'ico', 'avif']);

/** `Text/Markdown; charset=utf-8` → `text/markdown`. */
export function normalizeMime(mime: string | undefined): string | undefined {
  const m = mime?.split(';')[0].trim().toLowerCase();
  return m || undefined;
}

function info(mime: string | undefined): MimeInfo | undefined {
  const m = normalizeMime(mime);
  if (!m) return undefined;
  const direct = TABLE[m];
  if (direct) return direct;
  if (m.endsWith('+json')) return TABLE['application/json'];
  if (m.endsWith('+xml')) return TABLE['application/xml'];
  if (m.endsWith('+yaml')) return TABLE['application/yaml'];
  return undefined;
}

/** VS Code language id for a MIME type, when one is implied (not for `text/plain`, which is only generic). */
export function languageForMime(mime: string | undefined): string | undefined {
  return isGenericMime(mime) ? undefined : info(mime)?.language;
}

/** File extension (without dot) for a MIME type. */
export function extensionForMime(mime: string | undefined): string | undefined {
  return info(mime)?.ext;
}

/** Servers often label everything `text/plain` or `application/octet-stream`; a file name's own extension is better then. */
export function isGenericMime(mime: string | undefined): boolean {
  const m = normalizeMime(mime);
  return !m || m === 'text/plain' || m === 'application/octet-stream';
}

/** Whether bytes of this MIME type read as text (so a `blob` of it can open in a text editor). */
export function isTextMime(mime: string | undefined): boolean {
  const m = normalizeMime(mime);
  if (!m) return false;
  if (m.startsWith('text/')) return true;
  if (m.endsWith('+json') || m.endsWith('+xml') || m.endsWith('+yaml')) return true;
  return info(m)?.language !== undefined || m === 'application/toml' || m === 'application/x-ndjson';
}

/** How a content of this MIME type is shown. `hasText`: the content came as `text` (always text). */
export function contentKind(mime: string | undefined, hasText: boolean): ContentKind {
  if (hasText) return 'text';
  const m = normalizeMime(mime);
  if (m?.startsWith('image/') && PREVIEWABLE_IMAGES.has(extensionForMime(m) ?? '')) return 'image';
  return isTextMime(m) ? 'text' : 'binary';
}

/** The kind shown in the tree (before reading): from the listing's MIME type. */
export function listedKind(mime: string | undefined): ContentKind | 'unknown' {
  if (!normalizeMime(mime)) return 'unknown';
  return contentKind(mime, false);
}

const UNSAFE = /[\\/:*?"<>|\u0000-\u001f]+/g;

/**
 * A file name for a resource: the last segment of its URI (or its name), made safe, with an
 * extension matching the MIME type unless the MIME type is generic and the name already has one.
 */
export function fileNameFor(resourceUri: string, name: string | undefined, mime: string | undefined): string {
  let base = lastSegment(resourceUri) || name || 'resource';
  base = base.replace(UNSAFE, '_').replace(/^\.+/, '').slice(0, 100) || 'resource';
  const ext = extensionForMime(mime);
  const current = /\.([A-Za-z0-9]{1,8})$/.exec(base)?.[1]?.toLowerCase();
  if (!ext) return base;
  if (current && (isGenericMime(mime) || current === ext || sameType(current, ext))) return base;
  return `${base}.${ext}`;
}

function sameType(a: string, b: string): boolean {
  const groups = [['jpg', 'jpeg', 'jpe'], ['yaml', 'yml'], ['md', 'markdown'], ['html', 'htm'], ['js', 'mjs', 'cjs'], ['ts', 'mts', 'cts'], ['txt', 'text']];
  return groups.some(g => g.includes(a) && g.includes(b));
}

function lastSegment(uri: string): string {
  let path = uri;
  let authority = '';
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/([^/?#]*))?/.exec(uri);
  if (scheme) { path = uri.slice(scheme[0].length); authority = scheme[1] ?? ''; }
  path = path.replace(/[?#].*$/, '').replace(/\/+$/, '');
  // `demo://thing` names the resource by its authority alone.
  const seg = path.slice(path.lastIndexOf('/') + 1) || authority;
  try { return decodeURIComponent(seg); } catch { return seg; }
}

/** `1536` → `1.5 KB`. */
export function formatSize(bytes: number | undefined): string | undefined {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return undefined;
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024, i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
