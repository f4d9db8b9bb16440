/**
 * Checks a `sampling/createMessage` request beyond its JSON schema (the SDK has already parsed that),
 * as the 2025-11-25 spec asks of clients. Violations are JSON-RPC "Invalid params" (-32602).
 */
import { ProtocolErrorCode, ProtocolError, type CreateMessageRequest, type SamplingMessage, type SamplingMessageContentBlock } from '@modelcontextprotocol/client';

export type CreateMessageParams = CreateMessageRequest['params'];

export interface ValidationOptions {
  /** The client declared `sampling.tools` (MCP Host always does when sampling is served). */
  readonly toolsDeclared: boolean;
}

export function blocksOf(message: SamplingMessage): SamplingMessageContentBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/** Problems as plain sentences; empty when the request is fine. */
export function samplingRequestProblems(params: CreateMessageParams, options: ValidationOptions): string[] {
  const problems: string[] = [];
  const hasToolContent = params.messages.some(m => blocksOf(m).some(b => b.type === 'tool_use' || b.type === 'tool_result'));
  if (!options.toolsDeclared && (params.tools !== undefined || params.toolChoice !== undefined || hasToolContent)) {
    problems.push('The request uses tools, but this client did not declare the sampling.tools capability.');
    return problems;
  }
  if (!params.messages.length) problems.push('messages must not be empty.');
  if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1) problems.push('maxTokens must be a positive integer.');
  if (params.temperature !== undefined && !(params.temperature >= 0)) problems.push('temperature must not be negative.');

  const toolNames = new Set<string>();
  for (const t of params.tools ?? []) {
    if (toolNames.has(t.name)) problems.push(`Tool "${t.name}" is declared twice.`);
    toolNames.add(t.name);
  }
  if (params.toolChoice?.mode === 'required' && !toolNames.size) problems.push('toolChoice "required" needs at least one tool.');

  const seenIds = new Set<string>();
  for (let i = 0; i < params.messages.length; i++) {
    const m = params.messages[i];
    const blocks = blocksOf(m);
    const uses = blocks.filter(b => b.type === 'tool_use');
    const results = blocks.filter(b => b.type === 'tool_result');
    if (uses.length && m.role !== 'assistant') problems.push(`messages[${i}]: tool_use may only appear in assistant messages.`);
    if (results.length && m.role !== 'user') problems.push(`messages[${i}]: tool_result may only appear in user messages.`);
    if (results.length && results.length !== blocks.length) problems.push(`messages[${i}]: a message with tool results must contain only tool results.`);
    for (const u of uses) {
      if (seenIds.has(u.id)) problems.push(`messages[${i}]: tool_use id "${u.id}" is used twice.`);
      seenIds.add(u.id);
      if (toolNames.size && !toolNames.has(u.name)) problems.push(`messages[${i}]: tool_use names "${u.name}", which is not in tools.`);
    }
    // Balance: every tool_use is answered by the very next message, which holds exactly the matching results.
    if (uses.length && m.role === 'assistant') {
      const next = params.messages[i + 1];
      const answered = next ? blocksOf(next).filter(b => b.type === 'tool_result').map(b => b.toolUseId) : [];
      const missing = uses.filter(u => !answered.includes(u.id)).map(u => u.id);
      if (!next || next.role !== 'user' || missing.length) {
        problems.push(`messages[${i}]: tool_use ${missing.map(id => `"${id}"`).join(', ') || 'calls'} must be answered by tool_result in the next user message.`);
      }
    }
    if (results.length) {
      const prev = params.messages[i - 1];
      const asked = prev && prev.role === 'assistant' ? blocksOf(prev).filter(b => b.type === 'tool_use').map(b => b.id) : [];
      for (const r of results) {
        if (!asked.includes(r.toolUseId)) problems.push(`messages[${i}]: tool_result "${r.toolUseId}" answers no tool_use in the previous assistant message.`);
      }
      const ids = results.map(r => r.toolUseId);
      if (new Set(ids).size !== ids.length) problems.push(`messages[${i}]: a tool_use is answered twice.`);
    }
  }
  return problems;
}

/** Throws `ProtocolError(InvalidParams)` listing every problem. */
export function validateSamplingRequest(params: CreateMessageParams, options: ValidationOptions): void {
  const problems = samplingRequestProblems(params, options);
  if (problems.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid sampling request: ${problems.join(' ')}`);
}
