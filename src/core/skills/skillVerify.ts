/**
 * Verification of a skill file read from its server, before anything of it is used (SEP-2640
 * "Integrity and verification"): its byte length must be the manifest's size (checked first, so a
 * file that lies about its size is refused without hashing it), its SHA-256 the manifest's digest,
 * and a `SKILL.md`'s YAML frontmatter, parsed with a full YAML parser, must equal the entry's
 * frontmatter field by field. Any difference or parse failure refuses the skill; digests prove only
 * that manifest and content agree (both come from the same server), so the body is still untrusted
 * text for the model.
 */
import { createHash } from 'node:crypto';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { parseDocument } from 'yaml';
import { isRecord } from '../isRecord';
import { plainText } from '../text/plainText';
import type { SkillEntry, SkillFile } from './skillEntry';

/** A skill MCP Host will not use, and why (the message names the server and the skill). */
export class SkillRefusedError extends Error {
  constructor(readonly server: string, readonly skill: string, why: string) {
    super(`MCP Host did not load skill "${plainText(skill, { singleLine: true, maxLength: 80 })}" of server "${plainText(server, { singleLine: true, maxLength: 80 })}": ${why}`);
    this.name = 'SkillRefusedError';
  }
}

/** The bytes of the one content item of `result` for `file.uri`; throws when the server answered with anything else. */
export function fileBytes(entry: SkillEntry, file: SkillFile, result: ReadResourceResult): Buffer {
  const refuse = (why: string) => new SkillRefusedError(entry.server, entry.name, why);
  const items = result.contents.filter(c => c.uri === file.uri);
  if (items.length !== 1 || result.contents.length !== 1) throw refuse(`reading ${file.uri} answered with ${result.contents.length} item(s), not exactly that file.`);
  const item = items[0];
  if ('text' in item && typeof item.text === 'string') return Buffer.from(item.text, 'utf8');
  if ('blob' in item && typeof item.blob === 'string') return Buffer.from(item.blob, 'base64');
  throw refuse(`reading ${file.uri} gave neither text nor a blob.`);
}

/** Throws unless `bytes` have the manifest's size and digest. */
export function verifyFile(entry: SkillEntry, file: SkillFile, bytes: Buffer): void {
  if (bytes.length !== file.size) {
    throw new SkillRefusedError(entry.server, entry.name, `${file.uri} is ${bytes.length} bytes, but the server listed ${file.size}. Its content is not used.`);
  }
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (digest !== file.digest) {
    throw new SkillRefusedError(entry.server, entry.name, `${file.uri} does not match the digest the server listed (listed ${file.digest.slice(0, 19)}…, received ${digest.slice(0, 19)}…). Its content is not used.`);
  }
}

const FENCE = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** `text` split into its YAML frontmatter (parsed) and its body; throws when it has none or it does not parse to a mapping. */
export function splitFrontmatter(entry: SkillEntry, text: string): { frontmatter: Record<string, unknown>; body: string } {
  const refuse = (why: string) => new SkillRefusedError(entry.server, entry.name, `its SKILL.md ${why}. The skill is not loaded.`);
  const open = FENCE.exec(text);
  if (!open) throw refuse('does not begin with YAML frontmatter ("---")');
  const rest = text.slice(open[0].length);
  const close = CLOSING.exec(rest);
  if (!close) throw refuse('has no end to its frontmatter ("---")');
  const yamlText = rest.slice(0, close.index);
  // The YAML 1.2 core schema (no custom tags, no timestamps), few aliases (no "billion laughs"), unique keys.
  const doc = parseDocument(yamlText, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true });
  if (doc.errors.length) throw refuse(`has frontmatter that is not valid YAML (${plainText(doc.errors[0].message, { singleLine: true, maxLength: 160 })})`);
  let value: unknown;
  try { value = doc.toJS({ maxAliasCount: 16 }); } catch (e) { throw refuse(`has frontmatter that cannot be read (${plainText(String((e as Error).message), { singleLine: true, maxLength: 160 })})`); }
  if (!isRecord(value)) throw refuse('has frontmatter that is not a mapping');
  // The body starts at its first line with content (the blank lines after the fence are layout).
  const after = rest.slice(close.index + close[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');
  return { frontmatter: value, body: after };
}

/** The first field where `a` and `b` differ (a JSON path), or undefined when they are equal as JSON values. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return path || '(top)';
    for (let i = 0; i < a.length; i++) { const d = firstDifference(a[i], b[i], `${path}[${i}]`); if (d) return d; }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      if (!Object.hasOwn(a, k) || !Object.hasOwn(b, k)) return path ? `${path}.${k}` : k;
      const d = firstDifference(a[k], b[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(a, b) || (a === 0 && b === 0) ? undefined : path || '(top)';
}

/** Throws unless the parsed frontmatter of the fetched SKILL.md equals the entry's, field by field. */
export function verifyFrontmatter(entry: SkillEntry, parsed: Record<string, unknown>): void {
  const diff = firstDifference(entry.frontmatter, parsed);
  if (diff !== undefined) {
    throw new SkillRefusedError(entry.server, entry.name, `the frontmatter of its SKILL.md differs from what the server listed (field "${plainText(diff, { singleLine: true, maxLength: 80 })}"). The skill is not loaded.`);
  }
}
