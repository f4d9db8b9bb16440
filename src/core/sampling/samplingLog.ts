/**
 * Every sampling request and what became of it, newest last, kept in memory (bounded) so the user
 * can read it ("MCP: Show Sampling Log") and tests can observe the flow. Requests are stored as
 * sent to the model (after redaction), with base64 payloads shortened.
 */
import { Emitter } from '../events';
import type { SamplingResult } from './mapping';
import type { CreateMessageParams } from './validate';

export type SamplingStatus =
  | 'received' | 'awaiting-approval' | 'sending' | 'awaiting-review'
  | 'completed' | 'rejected' | 'denied' | 'rate-limited' | 'no-model' | 'invalid' | 'cancelled' | 'failed';

export interface SamplingLogEntry {
  readonly id: number;
  readonly server: string;
  readonly started: number;
  status: SamplingStatus;
  request: CreateMessageParams;
  model?: string;
  modelReason?: string;
  redactions?: number;
  /** 'policy' (allow), 'user' (approved in the prompt) or 'user-always'. */
  /** `policy`: the settings' "allow" (given to this program); `granted`: an earlier "always allow" of this program. */
  approval?: 'policy' | 'granted' | 'user' | 'user-always';
  edited?: boolean;
  result?: SamplingResult;
  error?: string;
  durationMs?: number;
}

export class SamplingLog {
  private readonly _entries: SamplingLogEntry[] = [];
  private nextId = 1;
  private readonly _onDidChange = new Emitter<SamplingLogEntry>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly capacity = 200) {}

  get entries(): readonly SamplingLogEntry[] { return this._entries; }

  add(server: string, request: CreateMessageParams): SamplingLogEntry {
    const entry: SamplingLogEntry = { id: this.nextId++, server, started: Date.now(), status: 'received', request: shorten(request) };
    this._entries.push(entry);
    if (this._entries.length > this.capacity) this._entries.splice(0, this._entries.length - this.capacity);
    this._onDidChange.fire(entry);
    return entry;
  }

  update(entry: SamplingLogEntry, change: Partial<Omit<SamplingLogEntry, 'id' | 'server' | 'started'>>): void {
    Object.assign(entry, change.request ? { ...change, request: shorten(change.request) } : change);
    if (change.result) entry.result = shorten(change.result);
    if (isFinal(entry.status) && entry.durationMs === undefined) entry.durationMs = Date.now() - entry.started;
    this._onDidChange.fire(entry);
  }

  dispose(): void { this._onDidChange.dispose(); }
}

export function isFinal(status: SamplingStatus): boolean {
  return !['received', 'awaiting-approval', 'sending', 'awaiting-review'].includes(status);
}

/** Markdown for one entry: header line, then the request and the response as JSON. */
export function formatSamplingEntry(e: SamplingLogEntry): string {
  const lines = [
    `## #${e.id} ${e.server} — ${e.status}`,
    '',
    `- time: ${new Date(e.started).toISOString()}${e.durationMs !== undefined ? ` (${e.durationMs} ms)` : ''}`,
  ];
  if (e.model) lines.push(`- model: ${e.model}${e.modelReason ? ` (${e.modelReason})` : ''}`);
  lines.push(`- maxTokens: ${e.request.maxTokens}`);
  if (e.approval) lines.push(`- approved by: ${e.approval}${e.edited ? ', edited' : ''}`);
  if (e.redactions) lines.push(`- secrets redacted: ${e.redactions}`);
  if (e.error) lines.push(`- error: ${e.error}`);
  lines.push('', '### Request', '', '```json', JSON.stringify(e.request, null, 2), '```');
  if (e.result) lines.push('', '### Response', '', '```json', JSON.stringify(e.result, null, 2), '```');
  return lines.join('\n');
}

export function formatSamplingLog(entries: readonly SamplingLogEntry[], server?: string): string {
  const shown = server === undefined ? entries : entries.filter(e => e.server === server);
  const title = `# MCP sampling log${server ? `: ${server}` : ''}`;
  if (!shown.length) return `${title}\n\nNo sampling requests yet.\n`;
  return `${title}\n\n${[...shown].reverse().map(formatSamplingEntry).join('\n\n')}\n`;
}

/** One line per request for a server's log channel. */
export function summarizeSamplingRequest(params: CreateMessageParams): string {
  const hints = params.modelPreferences?.hints?.map(h => h.name).filter(Boolean) ?? [];
  return [
    `${params.messages.length} message(s)`,
    `maxTokens ${params.maxTokens}`,
    params.systemPrompt !== undefined ? 'system prompt' : undefined,
    params.tools?.length ? `${params.tools.length} tool(s)${params.toolChoice?.mode ? ` (${params.toolChoice.mode})` : ''}` : undefined,
    hints.length ? `hints ${hints.join(', ')}` : undefined,
  ].filter(Boolean).join(', ');
}

/** Replaces base64 payloads by a size note so logs stay readable. */
function shorten<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, (k === 'data' || k === 'blob') && typeof x === 'string' && x.length > 64 ? `<base64, ${x.length} chars>` : walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
