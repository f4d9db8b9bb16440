/**
 * A skill entry as `skills/list` gives it (Skills extension `io.modelcontextprotocol/skills`, SEP-2640):
 * the URI of its `SKILL.md`, that file's frontmatter verbatim, and a manifest of the skill's files with
 * their sizes and SHA-256 digests. The server is hostile: every field is checked here, before anything
 * is shown or offered, and an entry that does not hold is dropped with the reason (the other entries
 * stay usable). What is checked: the `skill://` URI and its segments (no `..`, no other scheme), the
 * final segment equal to the name, the Agent Skills naming rules, every file inside the skill's own
 * directory and `SKILL.md` among them, well-formed digests and sizes, and the extension's per-skill
 * limits (512 files, 16 MiB). The files themselves are verified when read (skillVerify.ts).
 */
import { isRecord } from '../isRecord';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
const SCHEME = 'skill://';
const ENTRY_FILE = 'SKILL.md';

/** Bounds of one entry: the extension's per-skill limits, and ours for what reaches the user and model. */
export const SKILL_LIMITS = {
  maxFiles: 512,
  maxTotalBytes: 16 * 1024 * 1024,
  /** A SKILL.md larger than this is not loaded: its body goes into the model's context. */
  maxSkillMdBytes: 256 * 1024,
  maxUriLength: 2048,
  maxNameLength: 64,
  maxDescriptionLength: 1024,
  /** The frontmatter as JSON text. */
  maxFrontmatterChars: 16 * 1024,
} as const;

export interface SkillFile { readonly uri: string; readonly digest: string; readonly size: number }

export interface SkillEntry {
  /** The server that listed it: its files are read from that server only, whatever their URIs say. */
  readonly server: string;
  /** `skill://<prefix…>/<name>/SKILL.md` */
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the skill, `SKILL.md` among them. */
  readonly files: readonly SkillFile[];
  /** `skill://<prefix…>/<name>/`: every file's URI starts with it. */
  readonly root: string;
}

export type EntryCheck = { readonly ok: true; readonly entry: SkillEntry } | { readonly ok: false; readonly why: string };

/** Agent Skills naming rules: 1–64 lower-case letters, digits and single inner hyphens. */
export function isSkillName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= SKILL_LIMITS.maxNameLength && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name);
}

/**
 * The path segments of a `skill://` URI, or why it is not one we read: only the `skill` scheme, no
 * query or fragment, no empty, `.` or `..` segment (also percent-encoded), no backslash, blank or control
 * character, and no encoded separator.
 */
export function skillUriSegments(uri: unknown): { segments: string[] } | { why: string } {
  if (typeof uri !== 'string') return { why: 'its URI is not a string' };
  const shown = JSON.stringify(uri.slice(0, 120));
  if (uri.length > SKILL_LIMITS.maxUriLength) return { why: `its URI is longer than ${SKILL_LIMITS.maxUriLength} characters` };
  if (!uri.startsWith(SCHEME)) return { why: `${shown} is not a skill:// URI` };
  if (/[\s\\?#\u0000-\u001f\u007f-\u009f]/u.test(uri)) return { why: `${shown} holds a blank, backslash, control character, query or fragment` };
  const segments = uri.slice(SCHEME.length).split('/');
  for (const s of segments) {
    let decoded: string;
    try { decoded = decodeURIComponent(s); } catch { return { why: `${shown} has a malformed percent-encoding` }; }
    if (!decoded || decoded === '.' || decoded === '..' || /[/\\]/.test(decoded)) return { why: `${shown} has an empty, "." or ".." segment or an encoded separator` };
  }
  return { segments };
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Checks one entry of `server`'s `skills/list` (or `skills/get`) answer. */
export function checkSkillEntry(server: string, raw: unknown): EntryCheck {
  const fail = (why: string): EntryCheck => ({ ok: false, why });
  if (!isRecord(raw)) return fail('the entry is not an object');
  const { uri, frontmatter, resources } = raw;
  const parsed = skillUriSegments(uri);
  if ('why' in parsed) return fail(parsed.why);
  const segments = parsed.segments;
  if (segments.length < 2 || segments.at(-1) !== ENTRY_FILE) return fail(`${JSON.stringify(uri)} does not name a skill's ${ENTRY_FILE}`);
  if (!isRecord(frontmatter)) return fail('it has no frontmatter object');
  let size: number;
  try { size = JSON.stringify(frontmatter).length; } catch { return fail('its frontmatter is not JSON'); }
  if (size > SKILL_LIMITS.maxFrontmatterChars) return fail(`its frontmatter is larger than ${SKILL_LIMITS.maxFrontmatterChars} characters`);
  const { name, description } = frontmatter;
  if (!isSkillName(name)) return fail(`its name ${JSON.stringify(name)?.slice(0, 80)} breaks the Agent Skills naming rules (1–64 lower-case letters, digits and inner hyphens)`);
  if (segments.at(-2) !== name) return fail(`its URI's last directory is not its name "${name}"`);
  if (typeof description !== 'string' || !description.trim() || description.length > SKILL_LIMITS.maxDescriptionLength) return fail(`its description must be a non-empty string of at most ${SKILL_LIMITS.maxDescriptionLength} characters`);
  const root = (uri as string).slice(0, -ENTRY_FILE.length);
  if (!Array.isArray(resources)) return fail('it has no resources manifest');
  if (resources.length > SKILL_LIMITS.maxFiles) return fail(`it lists more than ${SKILL_LIMITS.maxFiles} files`);
  const files: SkillFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const r of resources) {
    if (!isRecord(r)) return fail('a manifest entry is not an object');
    const f = skillUriSegments(r.uri);
    if ('why' in f) return fail(`a file: ${f.why}`);
    const fileUri = r.uri as string;
    if (!fileUri.startsWith(root) || fileUri === root) return fail(`the file ${JSON.stringify(fileUri.slice(0, 120))} is outside the skill's directory ${root}`);
    if (seen.has(fileUri)) return fail(`the file ${fileUri} is listed twice`);
    seen.add(fileUri);
    if (typeof r.digest !== 'string' || !DIGEST.test(r.digest)) return fail(`the digest of ${fileUri} is not "sha256:" and 64 lower-case hex digits`);
    if (typeof r.size !== 'number' || !Number.isSafeInteger(r.size) || r.size < 0) return fail(`the size of ${fileUri} is not a byte count`);
    total += r.size;
    if (total > SKILL_LIMITS.maxTotalBytes) return fail(`its files add up to more than ${SKILL_LIMITS.maxTotalBytes / 1024 / 1024} MiB`);
    files.push({ uri: fileUri, digest: r.digest, size: r.size });
  }
  if (!seen.has(uri as string)) return fail(`its manifest does not list its own ${ENTRY_FILE}`);
  return { ok: true, entry: { server, uri: uri as string, name, description, frontmatter, files, root } };
}
