/**
 * SEP-2243 (spec 2026-07-28): a tool parameter annotated `x-mcp-header: <Name>` is mirrored into an
 * `Mcp-Param-<Name>` HTTP header. A server decides those names, so a malformed one could forge or
 * split headers; a tool with one is left out of the catalogue (the others stay).
 */
import type { Tool } from '@modelcontextprotocol/client';

/** RFC 9110 `token`: the characters a header field name may hold. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Types whose value has one unambiguous text form (a `number` does not: 1, 1.0, 1e0). */
const MIRRORABLE = new Set(['string', 'integer', 'boolean']);

/** Why `tool`'s header annotations are invalid, or undefined when they are fine (or absent). */
export function invalidHeaderAnnotation(tool: Pick<Tool, 'inputSchema'>): string | undefined {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== 'object') return undefined;
  const seen = new Set<string>();
  for (const [param, schema] of Object.entries(properties as Record<string, unknown>)) {
    if (!schema || typeof schema !== 'object' || !('x-mcp-header' in schema)) continue;
    const name = (schema as Record<string, unknown>)['x-mcp-header'];
    const type = (schema as Record<string, unknown>).type;
    if (typeof name !== 'string' || !name) return `parameter "${param}": x-mcp-header must be a non-empty name`;
    if (!TOKEN.test(name)) return `parameter "${param}": x-mcp-header "${name}" has characters a header name cannot hold`;
    if (typeof type !== 'string' || !MIRRORABLE.has(type)) return `parameter "${param}": x-mcp-header is allowed on string, integer and boolean parameters only`;
    const key = name.toLowerCase();
    if (seen.has(key)) return `parameter "${param}": x-mcp-header "${name}" is used twice`;
    seen.add(key);
  }
  return undefined;
}
