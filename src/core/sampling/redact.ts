/**
 * Removes secrets from a sampling request before it reaches a model: the values the user stored
 * for `${input:…}` variables, and strings shaped like well-known credentials. Structural fields
 * (types, roles, ids, tool names, MIME types) and base64 payloads are left alone so the request
 * stays valid.
 */
import type { CreateMessageParams } from './validate';
import { REDACTED, redactText, type Redaction } from '../redact';

export { REDACTED, redactText, type Redaction };

const KEEP_KEYS = new Set(['type', 'role', 'id', 'toolUseId', 'name', 'mimeType', 'data', 'blob']);

/** Redacts every free-text string of `value`, recursively (JSON-like values only). */
export function redactDeep<T>(value: T, secrets: readonly string[]): Redaction<T> {
  let count = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') { const r = redactText(v, secrets); count += r.count; return r.value; }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      // Only content blocks and messages have structural fields; free-form objects (tool input) are redacted whole.
      const structural = typeof (v as { type?: unknown }).type === 'string' || typeof (v as { role?: unknown }).role === 'string';
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structural && KEEP_KEYS.has(k) ? x : walk(x)]));
    }
    return v;
  };
  const out = walk(value) as T;
  return { value: out, count };
}

/** The parts of a request a model reads: messages and system prompt (tools are the server's own text). */
export function redactSamplingRequest(params: CreateMessageParams, secrets: readonly string[]): Redaction<CreateMessageParams> {
  const messages = redactDeep(params.messages, secrets);
  const system = params.systemPrompt !== undefined ? redactText(params.systemPrompt, secrets) : undefined;
  return {
    value: { ...params, messages: messages.value, ...(system ? { systemPrompt: system.value } : {}) },
    count: messages.count + (system?.count ?? 0),
  };
}
