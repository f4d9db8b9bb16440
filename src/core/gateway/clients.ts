/**
 * The gateway's clients and their credentials: each client (a window or an agent) has a secret path
 * segment and a bearer token of its own, both 256 random bits. A request must name a known path and
 * carry that client's token; tokens are compared in constant time. A revoked client is forgotten:
 * its path and token are refused from then on (a replayed token of a closed window finds nothing).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { GatewayClientInfo } from './types';

export interface GatewayClient {
  readonly info: GatewayClientInfo;
  readonly path: string;
  readonly token: string;
  /** Servers an agent may reach (undefined: a window, every server). */
  readonly servers?: readonly string[];
  lastCall?: { server: string; tool: string; at: number };
}

const secret = () => randomBytes(32).toString('base64url');
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class GatewayClients {
  private readonly byId = new Map<string, GatewayClient>();
  private readonly byPath = new Map<string, GatewayClient>();

  /** The client with this id, registered on first use (a window keeps one credential per gateway). */
  ensure(info: GatewayClientInfo, servers?: readonly string[]): GatewayClient {
    const known = this.byId.get(info.id);
    if (known) return known;
    const client: GatewayClient = { info: { ...info }, path: secret(), token: secret(), ...(servers ? { servers: [...servers] } : {}) };
    this.byId.set(info.id, client);
    this.byPath.set(client.path, client);
    return client;
  }

  get(id: string): GatewayClient | undefined { return this.byId.get(id); }

  /** Removes the client; true if there was one. */
  remove(id: string): GatewayClient | undefined {
    const c = this.byId.get(id);
    if (!c) return undefined;
    this.byId.delete(id);
    this.byPath.delete(c.path);
    return c;
  }

  clear(): void { this.byId.clear(); this.byPath.clear(); }

  all(): GatewayClient[] { return [...this.byId.values()]; }

  /**
   * The client whose path is `path` and whose token `authorization` carries (`Bearer <token>`);
   * undefined for anything else. Digests make the comparison constant-time whatever the lengths.
   */
  authenticate(path: string, authorization: string | undefined): GatewayClient | undefined {
    const client = this.byPath.get(path);
    const m = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(authorization ?? '');
    // Compared even without a client or a well-formed header, so neither is told apart by time.
    const ok = timingSafeEqual(digest(m?.[1] ?? ''), digest(client?.token ?? '\0'));
    return client && m && ok ? client : undefined;
  }
}
