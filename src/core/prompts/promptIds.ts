/**
 * Stable command ids for prompts: `mcpHost.prompt.<server>.<prompt>`, each part reduced to
 * `[A-Za-z0-9_-]` so the id is safe in keybindings.json and `when` clauses. The dot separates the
 * parts and never occurs inside one, so `a.b`/`c` and `a`/`b.c` map to different ids.
 */
export const PROMPT_COMMAND_PREFIX = 'mcpHost.prompt.';

export interface PromptRef { readonly server: string; readonly name: string; }

export function sanitizeIdPart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

export function promptCommandId(server: string, prompt: string): string {
  return `${PROMPT_COMMAND_PREFIX}${sanitizeIdPart(server)}.${sanitizeIdPart(prompt)}`;
}

/**
 * Ids for a set of prompts. Two prompts whose names sanitise alike (`a b` and `a_b`) would share an
 * id; the one whose raw names sort first keeps the plain id and the others get `~2`, `~3`, … — the
 * order depends only on the names, so an id does not change when servers start in another order.
 */
export function promptCommandIds(prompts: readonly PromptRef[]): Map<string, PromptRef> {
  const sorted = [...prompts].sort((a, b) => a.server < b.server ? -1 : a.server > b.server ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const ids = new Map<string, PromptRef>();
  for (const p of sorted) {
    const base = promptCommandId(p.server, p.name);
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}~${n}`;
    ids.set(id, { server: p.server, name: p.name });
  }
  return ids;
}
