/**
 * The step loop that collects a prompt's arguments one at a time, apart from how a step is shown:
 * `ask` shows one step (the VS Code layer uses a QuickPick with completions) and answers with a
 * value, `'back'`, or `undefined` for cancel. Arguments already given are not asked; an empty
 * answer skips an optional argument and is refused for a required one; going back shows the
 * earlier answer again. Each step sees the answers before it, for `completion/complete` context.
 */
import type { PromptArgument } from '@modelcontextprotocol/client';
import { argumentTitle } from './promptInvocation';

export interface ArgumentStep {
  readonly argument: PromptArgument;
  readonly title: string;
  readonly required: boolean;
  /** 0-based position among the steps actually asked, and their number. */
  readonly index: number;
  readonly total: number;
  /** What to prefill: the earlier answer when coming back, else the caller's default. */
  readonly initial: string | undefined;
  /** Arguments given by the caller plus the answers of the steps before this one. */
  readonly earlier: Readonly<Record<string, string>>;
}

export type StepAnswer = { readonly value: string } | 'back' | undefined;

/** Keys of `given` are never asked; an empty given value means "explicitly left out" and is not sent. */
export async function collectArguments(
  declared: readonly PromptArgument[],
  given: Readonly<Record<string, string>>,
  ask: (step: ArgumentStep) => Promise<StepAnswer>,
  defaults: Readonly<Record<string, string>> = {},
): Promise<Record<string, string> | undefined> {
  const steps = declared.filter(a => !(a.name in given));
  const answers = new Map<string, string>();
  for (let i = 0; i < steps.length;) {
    const argument = steps[i];
    const earlier: Record<string, string> = nonEmpty(given);
    for (const a of steps.slice(0, i)) { const v = answers.get(a.name); if (v) earlier[a.name] = v; }
    const answer = await ask({
      argument, title: argumentTitle(argument), required: !!argument.required, index: i, total: steps.length,
      initial: answers.has(argument.name) ? answers.get(argument.name) : defaults[argument.name], earlier,
    });
    if (answer === undefined) return undefined;
    if (answer === 'back') { if (i > 0) i--; continue; }
    if (!answer.value && argument.required) continue;
    answers.set(argument.name, answer.value);
    i++;
  }
  const out = nonEmpty(given);
  for (const [k, v] of answers) if (v) out[k] = v;
  return out;
}

function nonEmpty(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v) out[k] = v;
  return out;
}
