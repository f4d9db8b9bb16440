/**
 * One step per form field: an InputBox for text and numbers (validated as you type), a QuickPick for
 * yes/no and single choices, a multi-select QuickPick for lists. Optional fields can be skipped;
 * credential-looking fields carry a visible warning.
 */
import * as vscode from 'vscode';
import { checkMultiConstraints, parseTextInput, type FieldValue, type FormField, type MultiSelectField, type NumberField, type TextField } from '../../core';
import { InputFlowAction, type MultiStepInput } from '../multiStepInput';
import { pickText } from '../pickText';
import { oneLine } from './labels';

export interface StepFrame {
  readonly title: string;
  readonly step: number;
  readonly totalSteps: number;
  /** The requesting server as shown to the user (for warnings). */
  readonly server: string;
}

type ChoiceItem = vscode.QuickPickItem & { readonly value?: FieldValue; readonly skip?: true };

const skipLabel = () => `$(debug-step-over) ${vscode.l10n.t('Skip')}`;

/** Warning shown on fields that look like passwords, tokens or keys. */
export function secretWarning(server: string): string {
  return vscode.l10n.t('This looks like a secret (password, token or key). MCP servers must not ask for secrets in a form; answer only if you trust "{0}".', server);
}

/**
 * Asks one field. Resolves with the answer, or `undefined` when the user skipped an optional field.
 * Back and cancel are thrown as {@link InputFlowAction}s by the helper.
 */
export async function askField(input: MultiStepInput, field: FormField, current: FieldValue | undefined, frame: StepFrame): Promise<FieldValue | undefined> {
  switch (field.kind) {
    case 'text':
    case 'number': return askTyped(input, field, current, frame);
    case 'boolean': return askChoice(input, field, [
      { label: vscode.l10n.t('Yes'), value: true },
      { label: vscode.l10n.t('No'), value: false },
    ], current, frame);
    case 'select': return askChoice(input, field, field.choices.map(c => ({ label: pickText(c.label), description: c.label !== c.value ? pickText(c.value) : undefined, value: c.value })), current, frame);
    case 'multiSelect': return askMany(input, field, current as readonly string[] | undefined, frame);
  }
}

async function askTyped(input: MultiStepInput, field: TextField | NumberField, current: FieldValue | undefined, frame: StepFrame): Promise<FieldValue | undefined> {
  const skip: vscode.QuickInputButton | undefined = field.required ? undefined : { iconPath: new vscode.ThemeIcon('debug-step-over'), tooltip: vscode.l10n.t('Skip (leave unanswered)') };
  const result = await input.showInputBox({
    title: frame.title,
    step: frame.step,
    totalSteps: frame.totalSteps,
    value: current === undefined ? '' : String(current),
    prompt: field.sensitive ? `⚠ ${secretWarning(frame.server)} — ${fieldPrompt(field)}` : fieldPrompt(field),
    placeholder: typedPlaceholder(field),
    password: field.sensitive,
    buttons: skip ? [skip] : [],
    validate: text => {
      const parsed = parseTextInput(field, text);
      if (!parsed.ok) return parsed.error;
      return field.sensitive ? { message: `⚠ ${secretWarning(frame.server)}`, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
    },
  });
  if (typeof result !== 'string') {
    if (result === skip) return undefined;
    throw InputFlowAction.cancel;
  }
  const parsed = parseTextInput(field, result);
  if (!parsed.ok) throw InputFlowAction.resume; // cannot happen: the helper only accepts valid text
  return parsed.value;
}

async function askChoice(input: MultiStepInput, field: FormField, choices: ChoiceItem[], current: FieldValue | undefined, frame: StepFrame): Promise<FieldValue | undefined> {
  const items: ChoiceItem[] = [...warningSeparator(field, frame), ...choices];
  if (!field.required) items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: skipLabel(), description: vscode.l10n.t('leave unanswered'), skip: true });
  const active = items.find(i => i.value !== undefined && i.value === current) ?? (current === undefined && !field.required ? items.find(i => i.skip) : undefined) ?? choices[0];
  const picked = await input.showQuickPick<ChoiceItem>({
    title: frame.title,
    step: frame.step,
    totalSteps: frame.totalSteps,
    placeholder: fieldPrompt(field),
    items,
    activeItem: active,
    matchOnDescription: true,
  });
  if (!('label' in picked)) throw InputFlowAction.cancel;
  return picked.skip ? undefined : picked.value;
}

async function askMany(input: MultiStepInput, field: MultiSelectField, current: readonly string[] | undefined, frame: StepFrame): Promise<FieldValue | undefined> {
  const items: ChoiceItem[] = [...warningSeparator(field, frame), ...field.choices.map(c => ({ label: pickText(c.label), description: c.label !== c.value ? pickText(c.value) : undefined, value: c.value }))];
  const check = (selection: readonly ChoiceItem[]) => {
    if (!selection.length && !field.required) return undefined; // nothing checked = skipped
    return checkMultiConstraints(field, selection.map(i => i.value as string));
  };
  const picked = await input.showQuickPickMany<ChoiceItem>({
    title: frame.title,
    step: frame.step,
    totalSteps: frame.totalSteps,
    placeholder: fieldPrompt(field),
    items,
    selectedItems: items.filter(i => i.value !== undefined && current?.includes(i.value as string)),
    matchOnDescription: true,
    validate: check,
  });
  if (!Array.isArray(picked)) throw InputFlowAction.cancel;
  const values = (picked as readonly ChoiceItem[]).map(i => i.value as string);
  return values.length || field.required ? values : undefined;
}

function warningSeparator(field: FormField, frame: StepFrame): ChoiceItem[] {
  return field.sensitive ? [{ label: `⚠ ${secretWarning(frame.server)}`, kind: vscode.QuickPickItemKind.Separator }] : [];
}

/** "Label (optional) — description [constraints]". */
export function fieldPrompt(field: FormField): string {
  const parts = [oneLine(field.label) + (field.required ? '' : ` (${vscode.l10n.t('optional')})`)];
  if (field.description && field.description !== field.label) parts.push(`— ${oneLine(field.description)}`);
  const rules = constraints(field);
  if (rules) parts.push(`[${rules}]`);
  return parts.join(' ');
}

function constraints(field: FormField): string {
  const range = (min: number | undefined, max: number | undefined, unit: string) =>
    min !== undefined && max !== undefined ? vscode.l10n.t('{0}–{1} {2}', min, max, unit)
      : min !== undefined ? vscode.l10n.t('at least {0} {1}', min, unit)
        : max !== undefined ? vscode.l10n.t('at most {0} {1}', max, unit) : '';
  switch (field.kind) {
    case 'text': {
      const format = field.format === 'email' ? vscode.l10n.t('email address') : field.format === 'uri' ? vscode.l10n.t('URI')
        : field.format === 'date' ? vscode.l10n.t('date YYYY-MM-DD') : field.format === 'date-time' ? vscode.l10n.t('date and time with time zone') : '';
      return [format, range(field.minLength, field.maxLength, vscode.l10n.t('characters'))].filter(Boolean).join(', ');
    }
    case 'number': {
      const kind = field.integer ? vscode.l10n.t('whole number') : vscode.l10n.t('number');
      const bounds = field.minimum !== undefined && field.maximum !== undefined ? `${field.minimum}–${field.maximum}`
        : field.minimum !== undefined ? `≥ ${field.minimum}` : field.maximum !== undefined ? `≤ ${field.maximum}` : '';
      return [kind, bounds].filter(Boolean).join(' ');
    }
    case 'multiSelect': return range(field.minItems, field.maxItems, vscode.l10n.t('choices'));
    default: return '';
  }
}

function typedPlaceholder(field: TextField | NumberField): string {
  const skip = field.required ? '' : vscode.l10n.t('Leave empty to skip');
  let example = '';
  if (field.kind === 'text') {
    example = field.format === 'email' ? 'name@example.com' : field.format === 'uri' ? 'https://example.com' : field.format === 'date' ? '2025-01-31'
      : field.format === 'date-time' ? '2025-01-31T13:30:00Z' : '';
  } else {
    example = field.integer ? '42' : '3.14';
  }
  return [example && vscode.l10n.t('e.g. {0}', example), skip].filter(Boolean).join(' · ');
}
