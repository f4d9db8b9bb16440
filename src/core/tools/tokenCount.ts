/**
 * Token counts for the budgets of issue 19: the model's own count (`LanguageModelChat.countTokens`
 * in VS Code) where the request's model is known, the ≈ 4-characters-a-token estimate only where it
 * is not or the count fails.
 */
import { estimateTextTokens } from './resultBudget';
import { estimateToolTokens, modelToolDescription } from './toolOffer';
import type { SearchableTool } from './toolSearch';

/** The model's tokenizer: tokens of `text`. */
export type CountTokens = (text: string) => Promise<number>;

/** Tokens of `text` by `count`; the estimate without a counter or when it fails or answers nonsense. */
export async function countTextTokens(text: string, count?: CountTokens): Promise<number> {
  if (!count) return estimateTextTokens(text);
  try {
    const n = await count(text);
    return Number.isFinite(n) && n >= 0 ? Math.ceil(n) : estimateTextTokens(text);
  } catch {
    return estimateTextTokens(text);
  }
}

/**
 * A cost per tool on the model's scale. A request ranks thousands of tools, far too many to count one
 * by one (each count is a round trip to the model's provider), so the model counts the definitions of
 * `sample` (the best-ranked tools, those likely offered) once, and every tool's estimate is scaled by
 * that count over the sample's estimate.
 */
export async function modelToolCost<T extends SearchableTool>(sample: readonly T[], count?: CountTokens): Promise<(t: T) => number> {
  if (!count || !sample.length) return estimateToolTokens;
  const text = sample.map(t => JSON.stringify({ name: t.name, description: modelToolDescription(t.server, t.tool), inputSchema: t.tool.inputSchema ?? {} })).join('\n');
  const ratio = (await countTextTokens(text, count)) / Math.max(1, estimateTextTokens(text));
  return t => Math.ceil(estimateToolTokens(t) * ratio);
}
