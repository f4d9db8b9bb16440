/**
 * One server's budget: its limits, the gated logger for what the server writes, and the
 * transport wrapper that rate-limits what it sends. A connection owns one for its lifetime.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';
import { BudgetTransport, type FlowControl } from './budgetTransport';
import { BurstReporter } from './burstReporter';
import { LogGate } from './logGate';
import { resolveLimits, type ServerLimits } from './limits';

export class ServerBudget {
  readonly limits: ServerLimits;
  /** For lines that come from the server or its apps (stderr, log notifications, stray stdout): cleaned, cut and rate-limited. */
  readonly serverLog: LogGate;
  private readonly reporters: BurstReporter[];
  private readonly notifications: BurstReporter;
  private readonly requests: BurstReporter;

  constructor(logger: Logger, limits?: Partial<ServerLimits>) {
    const l = this.limits = resolveLimits(limits);
    const logLines = new BurstReporter(logger, 'log lines', `${l.maxLogLinesPerSecond} log lines per second`);
    this.notifications = new BurstReporter(logger, 'notifications', `${l.maxNotificationsPerSecond} notifications per second with ${l.maxQueuedNotifications} waiting`);
    this.requests = new BurstReporter(logger, 'requests (refused with an error)', `${l.maxServerRequestsPerSecond} requests to the client per second with ${l.maxQueuedServerRequests} waiting`);
    this.reporters = [logLines, this.notifications, this.requests];
    this.serverLog = new LogGate(logger, l.maxLogLineBytes, l.maxLogLinesPerSecond, logLines);
  }

  /** Wraps a connection's transport; `flow` (stdio) lets a full queue stop reading from the server. */
  wrap(transport: Transport, flow?: FlowControl): BudgetTransport {
    return new BudgetTransport(transport, this.limits, { notifications: this.notifications, requests: this.requests }, flow);
  }

  dispose(): void { for (const r of this.reporters) r.dispose(); }
}
