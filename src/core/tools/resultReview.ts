/**
 * The result gate (`mcpHost.tools.reviewResults`): a tool's result is shown to the user, who allows or
 * blocks it, before a model reads it — a gate against prompt injection through content a tool fetched
 * from the open world (a web page, an issue, a mail). What is gated:
 *  - `openWorld`: tools that say `openWorldHint: true`, and every tool that ever said so under this
 *    server's program: a server that drops the hint from a tool (after the user approved it, or to
 *    pass the gate) is still gated, since the hint is the server's claim and only its "yes" counts;
 *  - `untrustedServers`: the above, and every tool of a server the user did not list in `trustedServers`;
 *  - `always`: every result.
 * A blocked result, and one the user did not answer in time, gives the model {@link BLOCKED_RESULT}
 * and nothing of what the tool returned.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ApprovalStorage } from './approvalRecords';
import { plainText } from '../text/plainText';

export type ReviewResults = 'off' | 'openWorld' | 'untrustedServers' | 'always';

/** From the least to the most reviewing: a workspace may only move the user's choice to the right. */
export const REVIEW_RESULTS_ORDER: readonly ReviewResults[] = ['off', 'openWorld', 'untrustedServers', 'always'];

/** What the model reads instead of a blocked result: fixed, so nothing of the result reaches it. */
export const BLOCKED_RESULT = 'The user blocked this tool result before it reached you: it may hold instructions that did not come from the user. Do not retry the call; tell the user what you needed it for.';

/** How long the gateway holds a result for the user's answer before it is blocked. */
export const DEFAULT_REVIEW_TIMEOUT_MS = 5 * 60_000;

/** The setting's value; anything else is the default (`off`) — the settings schema says what is valid. */
export function reviewResultsMode(value: unknown): ReviewResults {
  return REVIEW_RESULTS_ORDER.includes(value as ReviewResults) ? value as ReviewResults : 'off';
}

/** The server as the gate sees it: its name, the program its declaration runs, and whether the user trusts it. */
export interface ReviewTarget {
  readonly server: string;
  readonly program?: string;
  /** Listed in the user's `mcpHost.trustedServers`. */
  readonly trusted: boolean;
}

const SEEN_KEY = 'mcpHost.results.openWorldSeen.v1';
/**
 * A server may list any number of tools, so the memory of hints is bounded, and never by forgetting
 * (a server listing thousands of hinted tools would push out the hint it then drops, or another
 * server's): past {@link MAX_PER_PROGRAM} names a program is remembered whole (every tool gated), and a
 * full memory gates every tool it cannot remember.
 */
const MAX_SEEN = 5_000;
const MAX_PER_PROGRAM = 200;

export class ResultReviews {
  constructor(private readonly storage: ApprovalStorage) {}

  /**
   * Whether the result of `tool` must be shown to the user first. Each call notes a tool that says
   * `openWorldHint` (so a later definition without it is still gated); call it for every call and
   * every listing the host sees.
   */
  async needsReview(mode: ReviewResults, target: ReviewTarget, tool: Tool): Promise<boolean> {
    const openWorld = await this.note(target, tool);
    if (mode === 'always') return true;
    if (mode === 'untrustedServers' && !target.trusted) return true;
    return mode !== 'off' && openWorld;
  }

  /** Remembers `tool` if it says `openWorldHint`; whether it says so now or said so before under this program. */
  async note(target: ReviewTarget, tool: Tool): Promise<boolean> {
    const prefix = JSON.stringify([target.server, target.program ?? '']).slice(0, -1);
    const key = `${prefix},${JSON.stringify(tool.name)}]`;
    const whole = `${prefix},null]`;
    const seen = this.seen();
    if (seen.includes(key) || seen.includes(whole)) return true;
    if (seen.length >= MAX_SEEN) return true;
    if (tool.annotations?.openWorldHint !== true) return false;
    const own = seen.filter(k => k.startsWith(`${prefix},`));
    await this.storage.update(SEEN_KEY, own.length >= MAX_PER_PROGRAM ? [...seen.filter(k => !own.includes(k)), whole] : [...seen, key]);
    return true;
  }

  private seen(): string[] {
    const raw = this.storage.get<unknown>(SEEN_KEY);
    return Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : [];
  }
}

/** Calls one confirmation may list at once; the rest are refused with {@link TOO_MANY_CALLS}. */
export const MAX_BATCH_CALLS = 20;
export const TOO_MANY_CALLS = `MCP Host asks the user about at most ${MAX_BATCH_CALLS} tool calls at once; this one was not run. Call it again in a later turn if it is still needed.`;

/**
 * One line that names a call's arguments for a confirmation listing several: keys and values cleaned
 * (no escapes, controls or invisible characters, one line) and the whole cut at `max` characters.
 */
export function argumentSummary(args: unknown, max = 160): string {
  const entries = args && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args as Record<string, unknown>) : [];
  const parts: string[] = [];
  let length = 0;
  for (const [key, value] of entries) {
    const part = `${plainText(key, { singleLine: true, maxLength: 40 })}=${plainText(JSON.stringify(value) ?? 'undefined', { singleLine: true, maxLength: 80 })}`;
    parts.push(part);
    length += part.length + 2;
    if (length > max) break;
  }
  return plainText(parts.join(', '), { singleLine: true, maxLength: max });
}
