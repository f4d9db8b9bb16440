/**
 * Filling an RFC 6570 resource template one variable at a time, independent of the UI that asks:
 * `ask` is one step (a QuickPick in VS Code, a script in tests) and may go back or cancel; values
 * are offered by the server through `completion/complete` with the earlier answers as
 * `context.arguments`. Expansion uses the SDK's `UriTemplate`. No `vscode` import.
 */
import { UriTemplate } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../core';

export interface TemplateVariable {
  readonly name: string;
  /** RFC 6570 operator of its expression: '' (simple), '+', '#', '.', '/', ';', '?', '&'. */
  readonly operator: string;
}

/** Variables in order of first appearance, each once. */
export function templateVariables(uriTemplate: string): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  const seen = new Set<string>();
  for (const m of uriTemplate.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    for (const raw of m[2].split(',')) {
      const name = raw.trim().replace(/\*$/, '').replace(/:\d+$/, '');
      if (!name || seen.has(name)) continue;
      seen.add(name);
      out.push({ name, operator: m[1] });
    }
  }
  return out;
}

/** Query-style variables may stay empty (they are then left out of the URI); path variables may not. */
export function mayBeEmpty(v: TemplateVariable): boolean { return v.operator === '?' || v.operator === '&'; }

export const BACK = Symbol('back');

export interface VariableStep {
  readonly variable: TemplateVariable;
  /** 0-based position and count, for "Step 2/3". */
  readonly index: number;
  readonly total: number;
  /** The value to start from (an earlier answer when going back, or a given initial value). */
  readonly value: string;
  /** Answers to the variables before this one: `context.arguments` for completion. */
  readonly previous: Readonly<Record<string, string>>;
}

/** One step of input: the value, {@link BACK}, or undefined when cancelled. */
export type AskVariable = (step: VariableStep) => Promise<string | typeof BACK | undefined>;

/** Asks for every variable in turn (supporting back) and expands the template; undefined if cancelled. */
export async function fillTemplate(uriTemplate: string, ask: AskVariable, initial: Readonly<Record<string, string>> = {}): Promise<{ uri: string; values: Record<string, string> } | undefined> {
  const variables = templateVariables(uriTemplate);
  const values: Record<string, string> = {};
  for (let i = 0; i < variables.length;) {
    const variable = variables[i];
    const previous = Object.fromEntries(variables.slice(0, i).map(v => [v.name, values[v.name]]));
    const answer = await ask({ variable, index: i, total: variables.length, value: values[variable.name] ?? initial[variable.name] ?? '', previous });
    if (answer === undefined) return undefined;
    if (answer === BACK) { i = Math.max(0, i - 1); continue; }
    values[variable.name] = answer;
    i++;
  }
  return { uri: expandTemplate(uriTemplate, values), values };
}

/** Expands with the SDK's `UriTemplate`; empty optional values are left out rather than sent as `x=`. */
export function expandTemplate(uriTemplate: string, values: Readonly<Record<string, string>>): string {
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  return new UriTemplate(uriTemplate).expand(defined);
}

/**
 * Values the server suggests for `name` given the typed `value` and earlier answers; [] when the
 * server has no completions capability or the request fails (free text always works).
 */
export async function completeVariable(conn: ServerConnection, uriTemplate: string, name: string, value: string, previous: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<{ values: string[]; hasMore: boolean }> {
  if (!conn.capabilities?.completions) return { values: [], hasMore: false };
  try {
    const r = await conn.complete({
      ref: { type: 'ref/resource', uri: uriTemplate },
      argument: { name, value },
      ...(Object.keys(previous).length ? { context: { arguments: { ...previous } } } : {}),
    }, { signal, timeoutMs: 10_000 });
    return { values: r.completion.values.filter(v => typeof v === 'string'), hasMore: !!r.completion.hasMore };
  } catch (e) {
    if (!signal?.aborted) conn.logger.debug(`completion/complete for {${name}} of ${uriTemplate} failed: ${e instanceof Error ? e.message : String(e)}`);
    return { values: [], hasMore: false };
  }
}
