/**
 * Removes secrets from a sampling request before it reaches a model: the values the user stored
 * for `${input:…}` variables, and strings shaped like well-known credentials. Structural fields
 * (types, roles, ids, tool names, MIME types) and base64 payloads are left alone so the request
 * stays valid.
 */
import type { CreateMessageParams } from './validate';

export const REDACTED = '[REDACTED]';

/** Credential shapes with a distinctive prefix or structure (few false positives on prose). */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,           // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,                         // GitHub fine-grained tokens
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g,                 // OpenAI / Anthropic keys
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,                         // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/g,                                     // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}\b/g,                                // Google API keys
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g, // JWTs
  /(?<=\bbearer\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi,                // Authorization: Bearer …
];

const KEEP_KEYS = new Set(['type', 'role', 'id', 'toolUseId', 'name', 'mimeType', 'data', 'blob']);

export interface Redaction<T> {
  readonly value: T;
  /** Number of replaced occurrences. */
  readonly count: number;
}

export function redactText(text: string, secrets: readonly string[]): Redaction<string> {
  let count = 0;
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const s of [...secrets].filter(s => s.length >= 4).sort((a, b) => b.length - a.length)) {
    const parts = out.split(s);
    if (parts.length > 1) { count += parts.length - 1; out = parts.join(REDACTED); }
  }
  for (const re of TOKEN_PATTERNS) {
    out = out.replace(re, m => (m === REDACTED ? m : (count++, REDACTED)));
  }
  return { value: out, count };
}

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
