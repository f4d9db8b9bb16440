/**
 * Which language model serves a sampling request. Pure: the embedder lists the models it has.
 *
 * Order of decisions:
 *  1. Candidates: the available models, narrowed to the user's `allowedModels` when set (and to
 *     models that can call tools when the request offers tools).
 *  2. The server's `modelPreferences.hints`, in order: the first hint that is a case-insensitive
 *     substring of a candidate's id, family or name narrows the candidates to its matches.
 *  3. No hint matched: the user's `defaultModel`, when it is a candidate, wins.
 *  4. The server's cost/speed/intelligence priorities rank what is left (see {@link traits});
 *     equal scores keep the user's order: default model, then `allowedModels` order, then the
 *     order the embedder listed the models in.
 */
import type { ModelPreferences } from '@modelcontextprotocol/client';

export interface ModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  readonly version?: string;
  readonly maxInputTokens?: number;
  /** undefined = unknown (treated as yes). */
  readonly supportsToolCalling?: boolean;
  readonly supportsImages?: boolean;
}

export interface ModelChoiceOptions {
  readonly allowedModels?: readonly string[];
  readonly defaultModel?: string;
  /** The request offers tools (and does not forbid them with toolChoice "none"). */
  readonly needsTools?: boolean;
}

export type ModelChoice =
  | { readonly model: ModelInfo; readonly candidates: readonly ModelInfo[]; readonly reason: string }
  | { readonly error: string; readonly code: 'no-models' | 'none-allowed' | 'no-tools' };

/** `ref` names `model` when it equals (case-insensitively) its id, `vendor/id`, family or name. */
export function matchesModelRef(model: ModelInfo, ref: string): boolean {
  const r = ref.trim().toLowerCase();
  return [model.id, `${model.vendor}/${model.id}`, model.family, model.name].some(s => s.toLowerCase() === r);
}

export function chooseModel(models: readonly ModelInfo[], prefs: ModelPreferences | undefined, options: ModelChoiceOptions = {}): ModelChoice {
  if (!models.length) return { code: 'no-models', error: 'No language model is available in VS Code.' };
  let candidates = [...models];
  const allowed = options.allowedModels;
  if (allowed) {
    candidates = candidates.filter(m => allowed.some(ref => matchesModelRef(m, ref)));
    // The allow-list's order is the user's order of preference.
    candidates.sort((a, b) => firstRef(a, allowed) - firstRef(b, allowed));
    if (!candidates.length) {
      return { code: 'none-allowed', error: `None of the allowed models (${allowed.join(', ') || 'empty list'}) is available; available: ${models.map(m => m.id).join(', ')}.` };
    }
  }
  if (options.needsTools) {
    const withTools = candidates.filter(m => m.supportsToolCalling !== false);
    if (!withTools.length) return { code: 'no-tools', error: `The request offers tools, but no usable model supports tool calling (${candidates.map(m => m.id).join(', ')}).` };
    candidates = withTools;
  }
  const all = candidates;
  const preferred = options.defaultModel ? candidates.find(m => matchesModelRef(m, options.defaultModel!)) : undefined;
  if (preferred) candidates = [preferred, ...candidates.filter(m => m !== preferred)];

  for (const hint of prefs?.hints ?? []) {
    const h = hint.name?.trim().toLowerCase();
    if (!h) continue;
    const matches = candidates.filter(m => [m.id, m.family, m.name].some(s => s.toLowerCase().includes(h)));
    if (matches.length) return { model: rank(matches, prefs, all), candidates: all, reason: `hint "${hint.name}"` };
  }
  if (preferred) return { model: preferred, candidates: all, reason: 'your default model' };
  const hasPriorities = prefs && [prefs.costPriority, prefs.speedPriority, prefs.intelligencePriority].some(p => typeof p === 'number' && p > 0);
  return { model: rank(candidates, prefs, all), candidates: all, reason: hasPriorities ? 'server priorities' : allowed ? 'first allowed model' : 'first available model' };
}

/** Highest priority-weighted score wins; the sort is stable, so ties keep the incoming order. */
function rank(models: readonly ModelInfo[], prefs: ModelPreferences | undefined, population: readonly ModelInfo[]): ModelInfo {
  if (models.length === 1 || !prefs) return models[0];
  const cost = prefs.costPriority ?? 0, speed = prefs.speedPriority ?? 0, intelligence = prefs.intelligencePriority ?? 0;
  if (cost + speed + intelligence === 0) return models[0];
  const score = (m: ModelInfo) => {
    const t = traits(m, population);
    return cost * t.cheapness + speed * t.speed + intelligence * t.intelligence;
  };
  const scored = models.map((m, i) => ({ m, i, s: score(m) }));
  scored.sort((a, b) => (Math.abs(b.s - a.s) < 1e-9 ? a.i - b.i : b.s - a.s));
  return scored[0].m;
}

const FAST_WORDS = /\b(mini|nano|flash|haiku|lite|light|small|fast|instant|turbo)\b|-(mini|nano|flash|lite|small|fast)\b/i;
const STRONG_WORDS = /\b(opus|pro|large|ultra|max|smart|reasoning|thinking)\b|-(pro|large|ultra|max|smart)\b/i;

/**
 * The VS Code API exposes no price or latency, so these are proxies, each in [0, 1]:
 * - intelligence: the model's context size (maxInputTokens) on a log scale relative to the other
 *   candidates (bigger context ≈ bigger, more capable model), nudged by names such as "pro"/"opus"
 *   (+0.25) or "mini"/"flash"/"haiku" (−0.25);
 * - speed and cheapness: the inverse of that size, plus 0.5 for the small-model names.
 * Unknown sizes count as the middle of the range.
 */
export function traits(model: ModelInfo, population: readonly ModelInfo[]): { intelligence: number; speed: number; cheapness: number } {
  const logs = population.map(m => m.maxInputTokens).filter((n): n is number => typeof n === 'number' && n > 0).map(Math.log);
  const lo = Math.min(...logs), hi = Math.max(...logs);
  const size = model.maxInputTokens && model.maxInputTokens > 0 && hi > lo ? (Math.log(model.maxInputTokens) - lo) / (hi - lo) : 0.5;
  const label = `${model.id} ${model.family} ${model.name}`;
  const fast = FAST_WORDS.test(label), strong = STRONG_WORDS.test(label);
  const clamp = (n: number) => Math.max(0, Math.min(1, n));
  const intelligence = clamp(size + (strong ? 0.25 : 0) - (fast ? 0.25 : 0));
  const quick = clamp(1 - size + (fast ? 0.5 : 0) - (strong ? 0.25 : 0));
  return { intelligence, speed: quick, cheapness: quick };
}

function firstRef(m: ModelInfo, refs: readonly string[]): number {
  const i = refs.findIndex(r => matchesModelRef(m, r));
  return i < 0 ? refs.length : i;
}
