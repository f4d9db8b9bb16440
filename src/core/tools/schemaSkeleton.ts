/**
 * A starting value for a tool's arguments, built from its input schema, for the JSON editor of the
 * tool runner: defaults and examples where the schema gives them, else an empty value of each
 * required property's type. Bounded: a hostile schema cannot make it deep or wide.
 */
const MAX_DEPTH = 6;
const MAX_PROPERTIES = 200;

type Schema = Record<string, unknown>;

export function schemaSkeleton(schema: unknown): Record<string, unknown> {
  const value = skeleton(schema, 0, { properties: 0 }, true);
  return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

function skeleton(schema: unknown, depth: number, budget: { properties: number }, includeOptional: boolean): unknown {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  const s = schema as Schema;
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length) return skeleton(list[0], depth + 1, budget, includeOptional);
  }
  const type = Array.isArray(s.type) ? s.type.find(t => t !== 'null') : s.type;
  switch (type) {
    case 'string': return '';
    case 'number': case 'integer': return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean': return false;
    case 'array': return [];
    case 'null': return null;
    default: {
      if (type !== 'object' && !s.properties) return null;
      const props = s.properties && typeof s.properties === 'object' ? s.properties as Record<string, unknown> : {};
      const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(props)) {
        // Top level: every property, so the user sees what the tool takes; deeper: the required ones.
        if (!includeOptional && !required.has(name)) continue;
        if (++budget.properties > MAX_PROPERTIES) break;
        out[name] = skeleton(sub, depth + 1, budget, false);
      }
      return out;
    }
  }
}
