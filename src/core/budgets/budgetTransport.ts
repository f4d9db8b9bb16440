/**
 * Sits between a server's transport and the SDK `Client`: responses to our requests pass at once;
 * notifications and server→client requests go through rate-limited, bounded queues. A refused
 * request gets a JSON-RPC error so the server is not left waiting. When a queue is full the
 * transport can stop reading (stdio: the server's writes block), so a flood costs neither memory
 * nor the CPU to parse what would be dropped.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/client';
import type { ServerLimits } from './limits';
import { RateQueue } from './rateQueue';
import type { BurstReporter } from './burstReporter';

/** JSON-RPC error code for a server→client request refused by the rate limit (as sampling's limit). */
export const RATE_LIMITED = -32000;

/**
 * A transport below that tells the host's own error answers from the SDK's refusals (the tracing
 * transport): a request the budget refused is ours and counted by its burst reporter, so it must
 * not also be logged as a refusal, one line per request.
 */
interface AnswerAware { reached?(id: string | number): void }

/** A transport whose reading can be paused (the stdio transport). */
export interface FlowControl { pause(): void; resume(): void; }

interface Incoming { readonly message: JSONRPCMessage; readonly extra?: MessageExtraInfo; }

export interface BudgetReporters { readonly notifications: BurstReporter; readonly requests: BurstReporter; }

const COALESCED = new Set(['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed', 'notifications/roots/list_changed']);

export class BudgetTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private readonly notifications: RateQueue<Incoming>;
  private readonly requests: RateQueue<Incoming>;
  private readonly pressure = new Set<string>();
  private readonly release: () => void;

  constructor(readonly inner: Transport, limits: ServerLimits, reporters: BudgetReporters, flow?: FlowControl) {
    const onPressure = (which: string) => flow && ((full: boolean) => {
      const was = this.pressure.size > 0;
      if (full) this.pressure.add(which); else this.pressure.delete(which);
      if (!was && this.pressure.size) flow.pause();
      else if (was && !this.pressure.size) flow.resume();
    });
    const deliver = (i: Incoming) => this.onmessage?.(i.message, i.extra);
    this.notifications = new RateQueue<Incoming>({
      perSecond: limits.maxNotificationsPerSecond, maxQueued: limits.maxQueuedNotifications,
      deliver, drop: () => {}, reporter: reporters.notifications, onPressure: onPressure('notifications'),
      coalesceKey: i => { const m = (i.message as { method?: string }).method; return m && COALESCED.has(m) ? m : undefined; },
    });
    this.requests = new RateQueue<Incoming>({
      perSecond: limits.maxServerRequestsPerSecond, maxQueued: limits.maxQueuedServerRequests,
      deliver, reporter: reporters.requests, onPressure: onPressure('requests'),
      drop: i => {
        const id = (i.message as { id: string | number }).id;
        (this.inner as AnswerAware).reached?.(id);
        this.inner.send({ jsonrpc: '2.0', id, error: { code: RATE_LIMITED, message: `Too many requests: this client handles at most ${limits.maxServerRequestsPerSecond} server requests per second and ${limits.maxQueuedServerRequests} waiting.` } })
          .catch(() => { /* the server is gone or not reading; nothing to tell it */ });
      },
    });
    // Closing drops what waits, and reading resumes so the stream can end and report the exit.
    this.release = () => { this.notifications.dispose(); this.requests.dispose(); if (this.pressure.size) { this.pressure.clear(); flow?.resume(); } };
    inner.onclose = () => { this.release(); this.onclose?.(); };
    inner.onerror = e => this.onerror?.(e);
    inner.onmessage = (message, extra) => {
      if (!('method' in message)) this.onmessage?.(message, extra);
      else if ('id' in message) this.requests.push({ message, extra });
      else this.notifications.push({ message, extra });
    };
  }

  get sessionId(): string | undefined { return this.inner.sessionId; }

  start(): Promise<void> { return this.inner.start(); }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> { return this.inner.send(message, options); }

  close(): Promise<void> {
    this.release();
    return this.inner.close();
  }

  setProtocolVersion(version: string): void { this.inner.setProtocolVersion?.(version); }
}
