/**
 * Change notifications on a 2026-07-28 connection: there is no `resources/subscribe` and no GET
 * stream, so one `subscriptions/listen` carries the list changes the server offers and the
 * resources we follow. Its notifications reach the client's usual notification handlers; changing
 * the set of resources replaces the listen.
 */
import type { Client, McpSubscription, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';
import { errorText } from './errors';

export class ListenSubscriptions {
  private readonly uris = new Set<string>();
  private current?: McpSubscription;
  /** Listens are replaced one after the other, never two at once. */
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(private readonly client: Client, private readonly caps: ServerCapabilities, private readonly logger: Logger) {}

  /** Opens the listen for list changes (and the resources followed so far). */
  start(): Promise<void> { return this.relisten(); }

  subscribe(uri: string): Promise<void> {
    if (this.uris.has(uri)) return this.queue;
    this.uris.add(uri);
    return this.relisten();
  }

  unsubscribe(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return this.queue;
    return this.relisten();
  }

  dispose(): void {
    this.disposed = true;
    void this.current?.close();
    this.current = undefined;
  }

  private filter(): SubscriptionFilter {
    const f: SubscriptionFilter = {};
    if (this.caps.tools?.listChanged) f.toolsListChanged = true;
    if (this.caps.prompts?.listChanged) f.promptsListChanged = true;
    if (this.caps.resources?.listChanged) f.resourcesListChanged = true;
    if (this.caps.resources?.subscribe && this.uris.size) f.resourceSubscriptions = [...this.uris];
    return f;
  }

  private relisten(): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.disposed) return;
      const previous = this.current;
      this.current = undefined;
      await previous?.close();
      const filter = this.filter();
      if (!Object.keys(filter).length) return;
      try {
        const sub = await this.client.listen(filter);
        if (this.disposed) { await sub.close(); return; }
        this.current = sub;
        void sub.closed.then(how => { if (how === 'remote' && this.current === sub) this.logger.warn('The server ended subscriptions/listen unexpectedly; change notifications stop until the server restarts'); });
      } catch (e) {
        this.logger.warn(`subscriptions/listen failed: ${errorText(e)}`);
        throw e;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
