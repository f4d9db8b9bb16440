/**
 * A declaration that comes from a registry entry, an install link or another extension may hold only
 * the `${input:…}` variables it defines itself: any other `${…}` (`${env:…}`, `${userHome}`,
 * `${workspaceFolder}`, another declaration's `${input:…}`) would read the user's machine or secrets
 * into a stranger's command line, environment or headers. The check runs on the finished declaration,
 * after every placeholder is filled and every input renamed, and on every string in it (keys too), so
 * no combination of values can put a variable together after it.
 */
import type { InputDefinition } from '../onboarding/inputs';

export interface ForeignVariable {
  /** Where: `args[2]`, `headers.Authorization`, `env` (a key). */
  readonly field: string;
  /** The variable as written, `${env:AWS_SECRET_ACCESS_KEY}` (or an unclosed `${…`). */
  readonly variable: string;
}

/** Every `${…}` in `value` (keys and strings, any depth) that is not `${input:<id>}` of an id in `own`. */
export function foreignVariables(value: unknown, own: ReadonlySet<string>): ForeignVariable[] {
  const found: ForeignVariable[] = [];
  const scan = (s: string, field: string) => {
    // Any `${`, closed or not: the substitution reads up to the next `}`, which a later edit could add.
    for (const m of s.matchAll(/\$\{[^}]*\}?/g)) {
      const ref = /^\$\{input:([^}]*)\}$/.exec(m[0]);
      if (!ref || !own.has(ref[1])) found.push({ field: field || '(value)', variable: m[0] });
    }
  };
  const walk = (v: unknown, field: string): void => {
    if (typeof v === 'string') scan(v, field);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${field}[${i}]`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) { scan(k, field); walk(x, field ? `${field}.${k}` : k); }
    }
  };
  walk(value, '');
  return found;
}

/** The user-facing refusal for {@link foreignVariables}' first finding, or undefined when there is none. */
export function foreignVariableError(found: readonly ForeignVariable[], who: string): string | undefined {
  const f = found[0];
  return f && `${f.field} would contain ${f.variable.slice(0, 80)}, which MCP Host reads as a variable (such as \${env:…}); ${who} may use only the \${input:…} variables it defines.`;
}

/** What of an input definition is written as a value (its options and default; a description is only read). */
export function inputValues(inputs: readonly InputDefinition[]): { options: readonly string[]; default: string }[] {
  return inputs.map(i => ({ options: i.options ?? [], default: i.default ?? '' }));
}
