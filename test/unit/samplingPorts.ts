/**
 * The model and the user of sampling, played through the sampling service's ports (shared by the
 * sampling unit tests; the servers that ask are real).
 */
import { programIdentity, type ApprovalTarget, type ServerScope, type ToolApprovals } from '../../src/core';
import type { Approval, ApprovalRequest, ChatRequest, ModelInfo, ResponsePart, Review, ReviewRequest, SamplingGrants, SamplingModelPort, SamplingUiPort } from '../../src/core/sampling';

export type Step = ResponsePart | { delayMs: number } | { error: string };

export class ScriptedModels implements SamplingModelPort {
  models: ModelInfo[] = [
    { id: 'fast-1', name: 'Fast One', family: 'fast', vendor: 'test', maxInputTokens: 16_000 },
    { id: 'smart-1', name: 'Smart One', family: 'smart', vendor: 'test', maxInputTokens: 128_000, supportsImages: true },
  ];
  queue: Step[][] = [];
  requests: { model: string; request: ChatRequest; justification: string }[] = [];
  aborted = 0;
  async listModels() { return this.models; }
  async *send(model: ModelInfo, request: ChatRequest, options: { justification: string; signal: AbortSignal }): AsyncIterable<ResponsePart> {
    this.requests.push({ model: model.id, request, justification: options.justification });
    options.signal.addEventListener('abort', () => this.aborted++, { once: true });
    const steps = this.queue.shift() ?? [{ kind: 'text', text: `echo: ${lastText(request)}` }];
    for (const s of steps) {
      if ('delayMs' in s) await new Promise<void>(r => { const t = setTimeout(r, s.delayMs); options.signal.addEventListener('abort', () => { clearTimeout(t); r(); }, { once: true }); });
      else if ('error' in s) throw new Error(s.error);
      else yield s;
      if (options.signal.aborted) return;
    }
  }
  async countTokens(_m: ModelInfo, t: string) { return Math.ceil(t.length / 4); }
}

export function lastText(r: ChatRequest): string {
  const parts = r.messages.at(-1)?.parts ?? [];
  return parts.map(p => (p.kind === 'text' ? p.text : '')).join('');
}

export class ScriptedUi implements SamplingUiPort {
  approvals: ((r: ApprovalRequest) => Approval)[] = [];
  reviews: ((r: ReviewRequest) => Review)[] = [];
  asked: ApprovalRequest[] = [];
  reviewed: ReviewRequest[] = [];
  noModel: string[] = [];
  async approve(r: ApprovalRequest) { this.asked.push(r); return (this.approvals.shift() ?? (() => ({ action: 'reject' as const })))(r); }
  async review(r: ReviewRequest) { this.reviewed.push(r); return (this.reviews.shift() ?? (() => ({ action: 'reject' as const })))(r); }
  notifyNoModel(_s: unknown, message: string) { this.noModel.push(message); }
}

/**
 * The grants port as the VS Code host builds it (chat/toolConsent.ts): the real approval records,
 * each request's target taken from the declaration in effect for the name now.
 */
export function programGrants(approvals: ToolApprovals, declaredNow: (server: string) => { readonly declaration: unknown; readonly scope: ServerScope } | undefined, workspace = 'file:///home/user/project'): SamplingGrants {
  const target = (server: string): ApprovalTarget => {
    const now = declaredNow(server);
    const identity = now && programIdentity(now.declaration, { scope: now.scope, workspace });
    return { server, scope: now?.scope, program: identity?.id, workspace: identity?.workspace };
  };
  return {
    check: (server, settingsAllow) => approvals.checkSampling(target(server.name), settingsAllow),
    grant: server => approvals.grantSampling(target(server.name)),
  };
}
