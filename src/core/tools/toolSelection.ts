/**
 * When more tools are enabled than a model accepts (VS Code allows 128), keep the most relevant:
 * score by overlap of words in the request with each tool's name and description; ties keep the
 * configured order so the choice is stable.
 */
export interface ScoredTool { readonly name: string; readonly description?: string }

const words = (s: string) => new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter(w => w.length > 2));

export function selectRelevantTools<T extends ScoredTool>(tools: readonly T[], request: string, limit: number): { selected: T[]; dropped: number } {
  if (tools.length <= limit) return { selected: [...tools], dropped: 0 };
  const q = words(request);
  const scored = tools.map((t, i) => {
    const name = words(t.name.replace(/[_-]/g, ' '));
    const desc = words(t.description ?? '');
    let score = 0;
    for (const w of q) { if (name.has(w)) score += 3; if (desc.has(w)) score += 1; }
    return { t, i, score };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const keep = new Set(scored.slice(0, limit).map(s => s.i));
  return { selected: tools.filter((_, i) => keep.has(i)), dropped: tools.length - limit };
}
