/**
 * The skills of each server (SEP-2640): listed with `skills/list` when first asked for and kept until
 * the server's state changes; nothing of a skill is read before it is loaded (the extension forbids
 * fetching ahead of need: not on connection, not on listing). Loading reads the skill's `SKILL.md`
 * from the server that listed it, verifies it (skillVerify.ts) and only then hands out its body.
 *
 * Bounded against a hostile server: at most {@link MAX_PAGES} pages and {@link MAX_SKILLS} skills, a
 * cursor that repeats ends the listing, an entry that fails its checks is dropped with the reason, and
 * a name listed twice keeps its first entry.
 */
import type { ReadResourceResult, ServerCapabilities, StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { Event } from '../events';
import type { Logger } from '../logger';
import { isRecord } from '../isRecord';
import type { StateChange } from '../connection/connectionState';
import { checkSkillEntry, SKILL_LIMITS, SKILLS_EXTENSION, type SkillEntry } from './skillEntry';
import { fileBytes, SkillRefusedError, splitFrontmatter, verifyFile, verifyFrontmatter } from './skillVerify';

export const MAX_SKILLS = 256;
export const MAX_PAGES = 16;
const MAX_CURSOR = 1024;

/** What the directory needs of a server connection ({@link ServerConnection} is one). */
export interface SkillServer {
  readonly name: string;
  readonly state: string;
  readonly capabilities: ServerCapabilities | undefined;
  readonly logger?: Pick<Logger, 'warn'>;
  readonly onDidChangeState: Event<StateChange>;
  request<T>(method: string, params: Record<string, unknown> | undefined, schema: StandardSchemaV1): Promise<T>;
  readResource(uri: string): Promise<ReadResourceResult>;
}

export interface SkillListing {
  readonly skills: readonly SkillEntry[];
  /** Entries dropped and why, for the log. */
  readonly problems: readonly string[];
}

/** A loaded skill: its verified `SKILL.md` split into frontmatter and body (still the server's text: clean it for any reader). */
export interface LoadedSkill {
  readonly entry: SkillEntry;
  readonly body: string;
  /** The whole verified SKILL.md. */
  readonly text: string;
  /** The skill's other files (URIs relative to its directory), not read. */
  readonly otherFiles: readonly string[];
}

const anyObject: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'mcp-host', validate: v => isRecord(v) ? { value: v } : { issues: [{ message: 'expected a JSON object' }] } },
};

/** Whether the server declares the Skills extension (only then is `skills/list` sent). */
export function offersSkills(server: Pick<SkillServer, 'capabilities'>): boolean {
  const ext = (server.capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return !!ext && isRecord(ext[SKILLS_EXTENSION]);
}

/** Lists every page of `skills/list`, within the bounds above. */
export async function listSkills(server: SkillServer): Promise<SkillListing> {
  const skills: SkillEntry[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await server.request<Record<string, unknown>>('skills/list', cursor === undefined ? undefined : { cursor }, anyObject);
    if (!Array.isArray(result.skills)) throw new Error(`server "${server.name}" answered skills/list without a "skills" list`);
    for (const raw of result.skills) {
      if (skills.length >= MAX_SKILLS) { problems.push(`it lists more than ${MAX_SKILLS} skills: the rest are not shown`); return { skills, problems }; }
      const checked = checkSkillEntry(server.name, raw);
      if (!checked.ok) { problems.push(`a skill was dropped: ${checked.why}`); continue; }
      if (names.has(checked.entry.name)) { problems.push(`skill "${checked.entry.name}" is listed twice: the first is kept`); continue; }
      names.add(checked.entry.name);
      skills.push(checked.entry);
    }
    const next = result.nextCursor;
    if (next === undefined || next === null) return { skills, problems };
    if (typeof next !== 'string' || next.length > MAX_CURSOR || cursors.has(next)) { problems.push('its skills/list cursor is invalid or repeats: listing stopped'); return { skills, problems }; }
    cursors.add(next);
    cursor = next;
  }
  problems.push(`it sends more than ${MAX_PAGES} pages of skills: the rest are not shown`);
  return { skills, problems };
}

/**
 * Reads `entry`'s SKILL.md from `server` (the one that listed it, never another whatever the URI
 * says), verifies size, digest and frontmatter, and returns its body. Throws {@link SkillRefusedError}.
 */
export async function loadSkill(server: SkillServer, entry: SkillEntry): Promise<LoadedSkill> {
  if (entry.server !== server.name) throw new SkillRefusedError(entry.server, entry.name, `it was listed by another server than "${server.name}".`);
  const file = entry.files.find(f => f.uri === entry.uri)!;
  if (file.size > SKILL_LIMITS.maxSkillMdBytes) throw new SkillRefusedError(entry.server, entry.name, `its SKILL.md is ${file.size} bytes, more than the ${SKILL_LIMITS.maxSkillMdBytes} MCP Host loads into a model's context.`);
  const bytes = fileBytes(entry, file, await server.readResource(entry.uri));
  verifyFile(entry, file, bytes);
  let text: string;
  try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { throw new SkillRefusedError(entry.server, entry.name, 'its SKILL.md is not UTF-8 text.'); }
  const { frontmatter, body } = splitFrontmatter(entry, text.replace(/^\ufeff/, ''));
  verifyFrontmatter(entry, frontmatter);
  return { entry, body, text, otherFiles: entry.files.filter(f => f !== file).map(f => f.uri.slice(entry.root.length)) };
}

/**
 * Reads one other file of a loaded skill (by its URI, which the manifest must list) from the server
 * that listed it, verified against the manifest's size and digest like SKILL.md.
 */
export async function readSkillFile(server: SkillServer, entry: SkillEntry, uri: string): Promise<Buffer> {
  const file = entry.files.find(f => f.uri === uri);
  if (!file || entry.server !== server.name) throw new SkillRefusedError(entry.server, entry.name, `${uri.slice(0, 200)} is not a file its manifest lists.`);
  if (file.size > SKILL_LIMITS.maxSkillMdBytes) throw new SkillRefusedError(entry.server, entry.name, `${file.uri} is ${file.size} bytes, more than the ${SKILL_LIMITS.maxSkillMdBytes} MCP Host reads of one file.`);
  const bytes = fileBytes(entry, file, await server.readResource(uri));
  verifyFile(entry, file, bytes);
  return bytes;
}

/**
 * A `resources/read` of `uri` that another client sends through the gateway: when the URI is a file of
 * one of the server's listed skills, the content is verified first (size and digest, a SKILL.md also its
 * frontmatter) and the verified text is the answer; undefined for any other URI (an ordinary resource).
 */
export async function verifiedSkillRead(directory: SkillDirectory, server: SkillServer, uri: string): Promise<ReadResourceResult | undefined> {
  if (!/^skill:/i.test(uri)) return undefined;
  // Another spelling of a listed URI (`SKILL://`, `SKILL%2Emd`) names the same file to a client: it is matched as that file.
  const key = canonicalUri(uri), same = (u: string) => canonicalUri(u) === key;
  const skills = (await directory.list(server)).skills;
  // A skill's own SKILL.md is answered as that skill (frontmatter too), even when an enclosing skill's
  // manifest lists it with another digest; any other file must match every manifest that lists it.
  const own = skills.find(s => same(s.uri));
  if (own) {
    const loaded = await loadSkill(server, own);
    return { contents: [{ uri, mimeType: 'text/markdown', text: loaded.text }] };
  }
  const [first, ...others] = skills.filter(s => s.files.some(f => same(f.uri)));
  if (!first) return undefined;
  const bytes = await readSkillFile(server, first, first.files.find(f => same(f.uri))!.uri);
  for (const e of others) verifyFile(e, e.files.find(f => same(f.uri))!, bytes);
  return { contents: [{ uri, blob: bytes.toString('base64') }] };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** A URI as RFC 3986 §6.2.2 compares it: scheme and authority in lower case, escaped unreserved characters decoded, other escapes upper case. */
function canonicalUri(uri: string): string {
  return uri.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/]*)/, (_m, scheme: string, authority: string) => `${scheme}${authority}`.toLowerCase())
    .replace(/%([0-9A-Fa-f]{2})/g, (m, h: string) => { const c = String.fromCharCode(parseInt(h, 16)); return UNRESERVED.test(c) ? c : m.toUpperCase(); });
}

/**
 * The listings of all servers, each kept until its server's state changes (a restart may serve other
 * skills). One per host ({@link McpHost.skills}).
 */
export class SkillDirectory {
  private readonly listings = new Map<SkillServer, { listing: Promise<SkillListing>; dispose(): void }>();

  /** The server's skills: none when it does not run or does not declare the extension. */
  list(server: SkillServer): Promise<SkillListing> {
    if (server.state !== 'running' || !offersSkills(server)) return Promise.resolve({ skills: [], problems: [] });
    const kept = this.listings.get(server);
    if (kept) return kept.listing;
    const listing = listSkills(server).then(l => {
      for (const p of l.problems) server.logger?.warn(`Skills: ${p}`);
      return l;
    });
    const sub = server.onDidChangeState(() => this.forget(server));
    this.listings.set(server, { listing, dispose: () => sub.dispose() });
    listing.catch(e => { server.logger?.warn(`Listing skills failed: ${e instanceof Error ? e.message : String(e)}`); this.forget(server); });
    return listing;
  }

  /** Loads skill `name` of `server` from its current listing. */
  async load(server: SkillServer, name: string): Promise<LoadedSkill> {
    const entry = (await this.list(server)).skills.find(s => s.name === name);
    if (!entry) throw new SkillRefusedError(server.name, name, 'the server lists no skill of that name.');
    return loadSkill(server, entry);
  }

  forget(server: SkillServer): void {
    this.listings.get(server)?.dispose();
    this.listings.delete(server);
  }

  dispose(): void { for (const s of [...this.listings.keys()]) this.forget(s); }
}
