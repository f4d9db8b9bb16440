/**
 * Serves `sampling/createMessage` with the user in control. The order matters:
 * validate → policy (deny = error -1) → rate limit → choose a model → redact secrets → ask the user
 * (policy "ask": approve once / always / edit / reject) → send to the model (stop sequences and the
 * token limit enforced on the answer, cancellation honoured) → let the user review the answer
 * (when they were asked) → return. Every step is recorded in the {@link SamplingLog} and the
 * server's logger.
 *
 * The service knows no UI and no model API: both come through ports, so an embedder (VS Code, a
 * CLI, a test) supplies them.
 */
import { ProtocolErrorCode, ProtocolError } from '@modelcontextprotocol/client';
import { REQUEST_TIMEOUT } from '../connection/errors';
import { nullLogger, type Logger } from '../logger';
import { UserRejectedError, type SamplingHandler, type ServerRef } from '../ports';
import { chooseModel, type ModelInfo } from './modelChoice';
import { ResponseAccumulator, toChatRequest, type ChatRequest, type SamplingResult } from './mapping';
import { RateLimiter } from './rateLimiter';
import { redactSamplingRequest } from './redact';
import { SamplingLog, summarizeSamplingRequest, type SamplingLogEntry } from './samplingLog';
import type { SamplingSettings } from './settings';
import { validateSamplingRequest, type CreateMessageParams } from './validate';

/** JSON-RPC error code for "too many sampling requests" (implementation-defined server error range). */
export const SAMPLING_RATE_LIMITED = -32000;

export type ResponsePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown };

export interface SamplingModelPort {
  listModels(): Promise<readonly ModelInfo[]>;
  /** Streams the model's answer. Aborting `signal` (or leaving the loop early) cancels the request. */
  send(model: ModelInfo, request: ChatRequest, options: { readonly justification: string; readonly signal: AbortSignal }): AsyncIterable<ResponsePart>;
  countTokens(model: ModelInfo, text: string, signal: AbortSignal): Promise<number>;
}

export interface ApprovalRequest {
  readonly server: ServerRef;
  readonly entryId: number;
  /** What will be sent (after redaction). */
  readonly params: CreateMessageParams;
  readonly model: ModelInfo;
  readonly modelReason: string;
  /** Models the user may switch to (already filtered by their allow-list). */
  readonly candidates: readonly ModelInfo[];
  readonly redactions: number;
  /** The settings allow sampling for this name, but they were given to another program than the one declared now. */
  readonly programChanged?: boolean;
}

/** `params`/`model` are set when the user edited the request or picked another model. */
export type Approval =
  | { readonly action: 'reject' }
  | { readonly action: 'once' | 'always'; readonly params?: CreateMessageParams; readonly model?: ModelInfo };

export interface ReviewRequest {
  readonly server: ServerRef;
  readonly entryId: number;
  readonly params: CreateMessageParams;
  readonly model: ModelInfo;
  readonly result: SamplingResult;
}

export type Review = { readonly action: 'send'; readonly result?: SamplingResult } | { readonly action: 'reject' };

/** Every human interaction. Consent defaults to no: a UI that cannot ask must reject. */
export interface SamplingUiPort {
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<Approval>;
  review(request: ReviewRequest, signal: AbortSignal): Promise<Review>;
  /** Tells the user, without waiting for them, that no model is usable and how to fix it. */
  notifyNoModel(server: ServerRef, message: string): void;
}

/**
 * Standing permission to sample unasked, bound to the program behind the name (VS Code: the
 * approval records of core/tools/toolApproval.ts). A name says nothing about what runs: a workspace or
 * registry server that takes a name the user allowed must not inherit the grant.
 */
export interface SamplingGrants {
  /** `settingsAllow`: `mcpHost.sampling` says "allow" for the name; whether that, or a stored grant, counts for the program declared now. */
  check(server: ServerRef, settingsAllow: boolean): Promise<{ readonly approvedBy?: 'granted' | 'settings'; readonly programChanged?: boolean }>;
  /** Remembers "always allow" for the program the server runs now. */
  grant(server: ServerRef): Promise<void>;
}

export interface SamplingServiceOptions {
  readonly models: SamplingModelPort;
  readonly ui: SamplingUiPort;
  /** Read on every request, so setting changes apply at once. */
  settings(): SamplingSettings;
  /** "Always allow" and the policy "allow", bound to programs. */
  readonly grants: SamplingGrants;
  /** Values to redact (stored input values): always from logs, from model requests when redaction is on. */
  secrets(): Promise<readonly string[]>;
  logger?(server: string): Logger;
  readonly log?: SamplingLog;
  readonly rateLimiter?: RateLimiter;
}

export class SamplingService {
  readonly log: SamplingLog;
  private readonly limiter: RateLimiter;
  private uiTurn: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SamplingServiceOptions) {
    this.log = options.log ?? new SamplingLog();
    this.limiter = options.rateLimiter ?? new RateLimiter();
  }

  /** The port handed to the core (`HostPorts.sampling`). */
  readonly handler: SamplingHandler = (server, params, signal) => this.handle(server, params, signal);

  async handle(server: ServerRef, params: CreateMessageParams, signal: AbortSignal): Promise<SamplingResult> {
    const logger = this.options.logger?.(server.name) ?? nullLogger;
    const settings = this.options.settings();
    const stored = [...await this.options.secrets()];
    const secrets = settings.redactSecrets ? stored : [];
    // The log never holds stored secrets, even with redaction for the model turned off.
    const entry = this.log.add(server.name, redactSamplingRequest(params, stored).value);
    const tag = `Sampling #${entry.id}`;
    logger.info(`${tag} requested: ${summarizeSamplingRequest(params)}`);
    try {
      const result = await this.serve(server, params, signal, settings, secrets, entry, logger, tag);
      this.log.update(entry, { status: 'completed', result });
      logger.info(`${tag} response (${result.stopReason ?? 'no stop reason'}, ${entry.durationMs} ms): ${JSON.stringify(entry.result)}`);
      return result;
    } catch (e) {
      const status = signal.aborted ? 'cancelled'
        : e instanceof UserRejectedError ? (entry.status === 'received' ? 'denied' : 'rejected')
        : e instanceof ProtocolError && e.code === SAMPLING_RATE_LIMITED ? 'rate-limited'
        : e instanceof ProtocolError && e.code === ProtocolErrorCode.InvalidParams ? 'invalid'
        : e instanceof NoModelError ? 'no-model'
        : 'failed';
      const message = e instanceof Error ? e.message : String(e);
      this.log.update(entry, { status, error: message });
      logger.warn(`${tag} ${status}: ${message}`);
      if (e instanceof NoModelError) throw new ProtocolError(ProtocolErrorCode.InternalError, e.message);
      throw e;
    }
  }

  private async serve(server: ServerRef, params: CreateMessageParams, signal: AbortSignal, settings: SamplingSettings, secrets: readonly string[], entry: SamplingLogEntry, logger: Logger, tag: string): Promise<SamplingResult> {
    validateSamplingRequest(params, { toolsDeclared: true });
    const config = settings.forServer(server.name);
    if (config.policy === 'deny') throw new UserRejectedError(`Sampling is denied for "${server.name}" by the setting mcpHost.sampling.`);
    const slot = this.limiter.take(server.name, config.rateLimit);
    if (!slot.ok) {
      throw new ProtocolError(SAMPLING_RATE_LIMITED, `Sampling rate limit exceeded for "${server.name}": at most ${config.rateLimit} request(s) per minute (setting mcpHost.samplingRateLimit). Try again in ${Math.ceil(slot.retryAfterMs / 1000)} s.`);
    }

    const needsTools = !!params.tools?.length && params.toolChoice?.mode !== 'none';
    const choice = chooseModel(await this.options.models.listModels(), params.modelPreferences, { ...config, needsTools });
    if ('error' in choice) {
      const message = `No usable language model for sampling: ${choice.error}`;
      this.options.ui.notifyNoModel(server, message);
      throw new NoModelError(message);
    }
    let model = choice.model;
    let outgoing = redactSamplingRequest(params, secrets);
    this.log.update(entry, { model: model.id, modelReason: choice.reason, redactions: outgoing.count });

    let asked = false;
    const standing = await this.options.grants.check(server, config.policy === 'allow');
    if (!standing.approvedBy) {
      this.log.update(entry, { status: 'awaiting-approval' });
      const approval = await this.exclusive(signal, () => this.options.ui.approve({
        server, entryId: entry.id, params: outgoing.value, model, modelReason: choice.reason, candidates: choice.candidates, redactions: outgoing.count,
        ...(standing.programChanged ? { programChanged: true } : {}),
      }, signal));
      if (approval.action === 'reject') throw new UserRejectedError('The user rejected the sampling request.');
      if (approval.action === 'always') {
        await this.options.grants.grant(server).catch(e => logger.warn(`${tag}: could not save "always allow": ${String(e)}`));
      }
      if (approval.params) {
        validateSamplingRequest(approval.params, { toolsDeclared: true });
        outgoing = redactSamplingRequest(approval.params, secrets);
      }
      if (approval.model) model = approval.model;
      asked = true;
      this.log.update(entry, {
        approval: approval.action === 'always' ? 'user-always' : 'user', edited: !!approval.params,
        model: model.id, modelReason: approval.model ? 'chosen by the user' : choice.reason,
        ...(approval.params ? { request: outgoing.value, redactions: outgoing.count } : {}),
      });
    } else {
      this.log.update(entry, { approval: standing.approvedBy === 'granted' ? 'granted' : 'policy' });
    }

    const sent = outgoing.value;
    logger.info(`${tag}: model ${model.vendor}/${model.id} (${entry.modelReason}), ${entry.approval === 'policy' ? 'allowed by policy' : entry.approval === 'granted' ? 'always allowed by the user' : 'approved by the user'}${outgoing.count ? `, ${outgoing.count} secret(s) redacted` : ''}`);
    logger.info(`${tag} request: ${JSON.stringify(entry.request)}`);
    this.log.update(entry, { status: 'sending' });
    let result = await this.complete(server, model, sent, signal);

    if (asked) {
      this.log.update(entry, { status: 'awaiting-review', result });
      const review = await this.exclusive(signal, () => this.options.ui.review({ server, entryId: entry.id, params: sent, model, result }, signal));
      if (review.action === 'reject') throw new UserRejectedError('The user rejected the response before it was returned.');
      if (review.result) result = review.result;
    }
    return result;
  }

  /** Runs the request, enforcing stop sequences and maxTokens on the answer. */
  private async complete(server: ServerRef, model: ModelInfo, params: CreateMessageParams, signal: AbortSignal): Promise<SamplingResult> {
    const request = toChatRequest(params, model);
    const acc = new ResponseAccumulator(params.stopSequences);
    const ctl = new AbortController();
    const onAbort = () => ctl.abort();
    signal.addEventListener('abort', onAbort);
    if (signal.aborted) ctl.abort();
    const maxTokens = params.maxTokens;
    // Tokens are at least a third of a character (byte-level BPE), so until the text is that long it cannot exceed the limit.
    let nextCheck = Math.ceil(maxTokens / 3);
    try {
      const justification = `MCP server "${server.name}" asked for a completion (sampling).`;
      for await (const part of this.options.models.send(model, request, { justification, signal: ctl.signal })) {
        if (signal.aborted) break;
        if (part.kind === 'toolCall') acc.addToolCall(part.callId, part.name, part.input);
        else {
          acc.addText(part.text);
          if (!acc.stopped && acc.text.length >= nextCheck) {
            const tokens = await this.options.models.countTokens(model, acc.text, ctl.signal);
            if (tokens > maxTokens) acc.truncate(await this.prefixWithin(model, acc.text, maxTokens, ctl.signal));
            else nextCheck = acc.text.length + Math.max(1, Math.ceil((maxTokens - tokens) / 3));
          }
        }
        if (acc.stopped) break;
      }
    } catch (e) {
      if (signal.aborted) throw new ProtocolError(REQUEST_TIMEOUT, 'Sampling cancelled by the server.');
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The language model request failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
      ctl.abort();
    }
    if (signal.aborted) throw new ProtocolError(REQUEST_TIMEOUT, 'Sampling cancelled by the server.');
    return acc.result(model.id, !!params.tools?.length || params.toolChoice !== undefined);
  }

  /** Length of the longest prefix of `text` within `maxTokens` tokens (binary search). */
  private async prefixWithin(model: ModelInfo, text: string, maxTokens: number, signal: AbortSignal): Promise<number> {
    let lo = 0, hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (await this.options.models.countTokens(model, text.slice(0, mid), signal) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** One prompt at a time (a second QuickPick would hide the first); a cancelled request leaves the queue at once. */
  private exclusive<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    const cancelled = () => new ProtocolError(REQUEST_TIMEOUT, 'Sampling cancelled by the server.');
    const turn = this.uiTurn.then(() => {
      if (signal.aborted) throw cancelled();
      return fn();
    });
    const result = new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(cancelled());
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
    // The next prompt waits for this one to be answered or cancelled, even if a UI fails to close on abort.
    this.uiTurn = result.catch(() => undefined);
    return result;
  }
}

class NoModelError extends Error {}
