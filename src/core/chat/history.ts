/**
 * The chat history sent back to the model is bounded like everything else in its context: bulky
 * answers (tool listings) are replaced by a line saying what they were, each turn is capped, and
 * when the whole is still too large the oldest turns go first. The newest turns are the ones a
 * follow-up request refers to.
 */

export interface HistoryTurn {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** A listing or similar answer the model does not need again: only a summary line is replayed. */
  readonly bulky?: string;
}

export interface HistoryBudget {
  /** Characters the whole replayed history may take. */
  readonly maxChars: number;
  /** Characters one turn may take. */
  readonly maxTurnChars: number;
}

/** History budget for a model: a quarter of its input (≈ 4 characters a token), a turn at most a quarter of that. */
export function historyBudget(maxInputTokens: number): HistoryBudget {
  const maxChars = Math.max(2_000, (maxInputTokens > 0 ? maxInputTokens : 16_000));
  return { maxChars, maxTurnChars: Math.max(1_000, Math.floor(maxChars / 4)) };
}

/** The turns to replay, oldest first, within `budget`. */
export function boundHistory(turns: readonly HistoryTurn[], budget: HistoryBudget): { role: 'user' | 'assistant'; text: string }[] {
  const out: { role: 'user' | 'assistant'; text: string }[] = [];
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    let text = t.bulky !== undefined ? `[${t.bulky}]` : t.text;
    if (text.length > budget.maxTurnChars) text = `${text.slice(0, budget.maxTurnChars)}… [shortened: ${text.length} characters in all]`;
    if (used + text.length > budget.maxChars) break;
    out.push({ role: t.role, text });
    used += text.length;
  }
  // A replay that starts with an answer has lost its question; drop it.
  if (out.length && out[out.length - 1].role === 'assistant') out.pop();
  return out.reverse();
}
