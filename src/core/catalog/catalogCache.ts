/**
 * Catalogues (tools, resources, templates, prompts, instructions) kept on disk per declaration, so
 * a server that is not running still shows what it offers (`mcpHost.autostart: onDemand`).
 *
 * What is kept is only ever shown: a call starts the real server and uses the catalogue it lists
 * (ServerConnection.ready). Whatever wrote the folder, an entry is checked on the way in: its size,
 * its format, the key it names, and every list against the SDK's schemas; anything else is ignored.
 * What is written holds no secret: no environment or header values (only a hash of the declaration
 * names the file), no result content (lists only), and the declaration's values, the resolved
 * `${input:…}` values and OAuth tokens redacted from every string a server sent. Bounded: entry
 * size, resources per entry, entries and bytes in the folder (the oldest entries go first).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import type { Implementation, Prompt, Resource, ResourceTemplateType as ResourceTemplate, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { nullLogger, type Logger } from '../logger';
import { redactValue } from '../redact';
import { CATALOG_CACHE_FORMAT, catalogCacheFile } from './catalogCacheKey';

export interface CachedCatalog {
  /** `Date.now()` when the server listed it. */
  readonly savedAt: number;
  /** What the server said it is in `initialize` (name, version, title). */
  readonly server?: Pick<Implementation, 'name' | 'version' | 'title'>;
  readonly instructions?: string;
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
}

export interface CatalogCacheLimits {
  /** One entry's JSON text (a larger file is ignored, a larger catalogue is not written). */
  readonly maxEntryBytes: number;
  /** Resources kept per entry (the first ones listed): the rest are listed when the server runs. */
  readonly maxResources: number;
  readonly maxEntries: number;
  readonly maxTotalBytes: number;
  /** Server instructions kept (characters). */
  readonly maxInstructions: number;
}

export const defaultCatalogCacheLimits: CatalogCacheLimits = {
  maxEntryBytes: 1024 * 1024, maxResources: 200, maxEntries: 200, maxTotalBytes: 32 * 1024 * 1024, maxInstructions: 32 * 1024,
};

export class CatalogCache {
  private readonly limits: CatalogCacheLimits;

  constructor(readonly dir: string, limits: Partial<CatalogCacheLimits> = {}, private readonly logger: Logger = nullLogger) {
    this.limits = { ...defaultCatalogCacheLimits, ...limits };
  }

  /** The entry for `key`, or undefined when there is none or it is not a well-formed entry for this key. */
  async load(key: string): Promise<CachedCatalog | undefined> {
    const file = catalogCacheFile(this.dir, key);
    let text: string;
    try {
      const handle = await fs.open(file, 'r');
      try {
        if ((await handle.stat()).size > this.limits.maxEntryBytes) return this.ignore(key, 'it is larger than allowed');
        text = await handle.readFile('utf8');
      } finally { await handle.close(); }
    } catch { return undefined; }
    let raw: unknown;
    try { raw = JSON.parse(text); } catch { return this.ignore(key, 'it is not JSON'); }
    return this.check(key, raw);
  }

  /** Writes the entry for `key` (atomically), with `secrets` and token-like strings redacted everywhere. */
  async save(key: string, catalog: Omit<CachedCatalog, 'savedAt'>, secrets: readonly string[]): Promise<void> {
    const { maxEntryBytes, maxResources, maxInstructions } = this.limits;
    const entry = {
      format: CATALOG_CACHE_FORMAT, key, savedAt: Date.now(),
      ...(catalog.server ? { server: { name: catalog.server.name, version: catalog.server.version, ...(catalog.server.title !== undefined ? { title: catalog.server.title } : {}) } } : {}),
      ...(catalog.instructions !== undefined ? { instructions: catalog.instructions.slice(0, maxInstructions) } : {}),
      tools: catalog.tools, resources: catalog.resources.slice(0, maxResources), resourceTemplates: catalog.resourceTemplates, prompts: catalog.prompts,
    };
    let text = JSON.stringify(redactValue(entry, secrets));
    // Resources are the part that grows with a workspace; tools, templates and prompts are what a user picks from.
    if (text.length > maxEntryBytes) text = JSON.stringify(redactValue({ ...entry, resources: [] }, secrets));
    if (text.length > maxEntryBytes) {
      this.logger.info(`The catalogue is larger than ${maxEntryBytes} bytes: it is not cached`);
      await this.remove(key);
      return;
    }
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = catalogCacheFile(this.dir, key);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temp, text, { mode: 0o600 });
      await fs.rename(temp, file);
    } catch (e) {
      await fs.rm(temp, { force: true });
      throw e;
    }
    await this.prune(key);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(catalogCacheFile(this.dir, key), { force: true });
  }

  private check(key: string, raw: unknown): CachedCatalog | undefined {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return this.ignore(key, 'it is not an object');
    const r = raw as Record<string, unknown>;
    // An entry copied from another declaration's file names that declaration's key.
    if (r.format !== CATALOG_CACHE_FORMAT || r.key !== key) return this.ignore(key, 'it belongs to another declaration or format');
    if (typeof r.savedAt !== 'number' || !Number.isFinite(r.savedAt)) return this.ignore(key, 'it has no save time');
    const lists = {
      tools: valid(specTypeSchemas.ListToolsResult, { tools: r.tools }, 'tools'),
      resources: valid(specTypeSchemas.ListResourcesResult, { resources: r.resources }, 'resources'),
      resourceTemplates: valid(specTypeSchemas.ListResourceTemplatesResult, { resourceTemplates: r.resourceTemplates }, 'resourceTemplates'),
      prompts: valid(specTypeSchemas.ListPromptsResult, { prompts: r.prompts }, 'prompts'),
    };
    if (!lists.tools || !lists.resources || !lists.resourceTemplates || !lists.prompts) return this.ignore(key, 'a list in it is not well-formed');
    const s = r.server as Record<string, unknown> | undefined;
    if (s !== undefined && (typeof s !== 'object' || s === null || typeof s.name !== 'string' || typeof s.version !== 'string' || (s.title !== undefined && typeof s.title !== 'string'))) return this.ignore(key, 'its server information is not well-formed');
    if (r.instructions !== undefined && typeof r.instructions !== 'string') return this.ignore(key, 'its instructions are not text');
    return {
      savedAt: r.savedAt,
      ...(s ? { server: { name: s.name as string, version: s.version as string, ...(typeof s.title === 'string' ? { title: s.title } : {}) } } : {}),
      ...(typeof r.instructions === 'string' ? { instructions: r.instructions.slice(0, this.limits.maxInstructions) } : {}),
      tools: lists.tools as Tool[],
      resources: (lists.resources as Resource[]).slice(0, this.limits.maxResources),
      resourceTemplates: lists.resourceTemplates as ResourceTemplate[],
      prompts: lists.prompts as Prompt[],
    };
  }

  private ignore(key: string, why: string): undefined {
    this.logger.warn(`The cached catalogue ${key.slice(0, 12)}… was ignored: ${why}`);
    return undefined;
  }

  /** Oldest entries go until the folder is within its count and size; `keep` (just written) stays. */
  private async prune(keep: string): Promise<void> {
    let names: string[];
    try { names = (await fs.readdir(this.dir)).filter(n => n.endsWith('.json')); } catch { return; }
    const entries = (await Promise.all(names.map(async name => {
      try { const st = await fs.stat(`${this.dir}/${name}`); return { name, bytes: st.size, at: st.mtimeMs }; } catch { return undefined; }
    }))).filter(e => e !== undefined).sort((a, b) => b.at - a.at);
    let count = 0, bytes = 0;
    for (const e of entries) {
      count++; bytes += e.bytes;
      if (e.name !== `${keep}.json` && (count > this.limits.maxEntries || bytes > this.limits.maxTotalBytes)) {
        count--; bytes -= e.bytes;
        await fs.rm(`${this.dir}/${e.name}`, { force: true });
      }
    }
  }
}

/** The list in `wrapper` if it passes `schema` (synchronously), else undefined. */
function valid(schema: StandardSchemaV1, wrapper: Record<string, unknown>, field: string): unknown[] | undefined {
  if (!Array.isArray(wrapper[field])) return undefined;
  const r = schema['~standard'].validate(wrapper);
  if ('then' in r || r.issues) return undefined;
  return (r.value as Record<string, unknown>)[field] as unknown[];
}
