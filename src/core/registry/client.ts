/**
 * A client of the MCP Registry API (`/v0.1/servers`): search with cursor pagination, and the
 * versions of one server. Errors say whether the registry could not be reached (offline, DNS, a
 * refused connection: `offline`) or answered something that is not the API (`badResponse`), so the
 * UI can tell the user which.
 */
import { readEntry, readServerList } from './read';
import type { RegistryEntry, RegistryPage } from './types';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
/** A page of results is small; a registry that sends more is cut off rather than buffered. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

export type RegistryErrorCode = 'offline' | 'badResponse' | 'notFound' | 'badUrl';

export class RegistryError extends Error {
  constructor(readonly code: RegistryErrorCode, message: string, readonly registryUrl: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

export interface RegistryClientOptions {
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

export class RegistryClient {
  private readonly base: URL;

  /** @throws RegistryError `badUrl` unless `baseUrl` is an http(s) URL. */
  constructor(readonly baseUrl: string, private readonly options: RegistryClientOptions = {}) {
    let u: URL;
    try { u = new URL(baseUrl); } catch { throw new RegistryError('badUrl', `"${baseUrl}" is not a URL.`, baseUrl); }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new RegistryError('badUrl', `The registry URL must start with https:// (got "${baseUrl}").`, baseUrl);
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    this.base = u;
  }

  /** One page of servers whose name matches `search` (all servers when empty); latest versions only. */
  async search(search: string, cursor?: string, limit = 30, signal?: AbortSignal): Promise<RegistryPage> {
    const query = new URLSearchParams({ limit: String(limit), version: 'latest' });
    if (search.trim()) query.set('search', search.trim());
    if (cursor) query.set('cursor', cursor);
    const page = readServerList(await this.get(`v0.1/servers?${query.toString()}`, signal));
    if (!page) throw this.error('badResponse', 'the answer is not a server list');
    return page;
  }

  /** Every published version of one server, newest first as the registry orders them. */
  async versions(name: string, signal?: AbortSignal): Promise<RegistryEntry[]> {
    const page = readServerList(await this.get(`v0.1/servers/${encodeURIComponent(name)}/versions`, signal));
    if (!page) throw this.error('badResponse', 'the answer is not a version list');
    return [...page.entries];
  }

  /** One version (`latest` by default) of one server. */
  async server(name: string, version = 'latest', signal?: AbortSignal): Promise<RegistryEntry> {
    const entry = readEntry(await this.get(`v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`, signal));
    if (!entry) throw this.error('badResponse', 'the answer is not a server entry');
    if (entry.server.name !== name) throw this.error('badResponse', `it answered for "${entry.server.name}" instead of "${name}"`);
    return entry;
  }

  private async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const url = new URL(path, this.base);
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS);
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(url, { headers: { accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'follow' });
    } catch (e) {
      if (signal?.aborted) throw e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw this.error('offline', cause?.code ?? cause?.message ?? (e as Error).message);
    }
    if (res.status === 404) throw this.error('notFound', `${url.pathname} was not found (HTTP 404)`);
    if (!res.ok) throw this.error('badResponse', `HTTP ${res.status} ${res.statusText}`.trim());
    const text = await readLimited(res, MAX_RESPONSE_BYTES);
    if (text === undefined) throw this.error('badResponse', `the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`);
    try { return JSON.parse(text) as unknown; } catch { throw this.error('badResponse', 'the answer is not JSON'); }
  }

  private error(code: RegistryErrorCode, detail: string): RegistryError {
    const where = this.base.origin + this.base.pathname.replace(/\/$/, '');
    const message = code === 'offline'
      ? `Cannot reach the MCP registry at ${where} (${detail}). Check your connection or the setting mcpHost.registry.url.`
      : code === 'notFound'
        ? `The MCP registry at ${where} does not know this: ${detail}.`
        : `The MCP registry at ${where} gave an unusable answer: ${detail}.`;
    return new RegistryError(code, message, where);
  }
}

async function readLimited(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) { await res.body.cancel().catch(() => undefined); return undefined; }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
