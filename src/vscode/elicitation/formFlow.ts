/**
 * Form-mode elicitation as one multi-step flow: a step per field (defaults prefilled), then a review
 * step to submit, change a field, decline or cancel. Closing the flow at any point is "cancel".
 */
import * as vscode from 'vscode';
import { describeValue, initialValues, toContent, validateContent, type FieldValue, type FormField, type FormValues, type ServerRef } from '../../core';
import { MultiStepInput, type InputStep } from '../multiStepInput';
import { pickText } from '../pickText';
import { askField } from './fieldSteps';
import { formTitle, serverLabel } from './labels';

export type FormOutcome =
  | { readonly action: 'accept'; readonly content: Record<string, string | number | boolean | string[]> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export interface FormRequest {
  readonly server: ServerRef;
  readonly message: string;
  readonly fields: readonly FormField[];
  readonly signal?: AbortSignal;
  /** Wording of the flow when it is not a server's question (the tool runner): title, review step, no Decline. */
  readonly wording?: { readonly title: string; readonly submit: string; readonly submitDescription: string; readonly placeholder: string };
}

type ReviewItem = vscode.QuickPickItem & { readonly run?: 'submit' | 'decline' | 'cancel'; readonly field?: number };

export async function runFormFlow(req: FormRequest): Promise<FormOutcome> {
  const { fields } = req;
  const values: FormValues = initialValues(fields);
  const title = req.wording?.title ?? formTitle(req.server, req.message);
  const server = serverLabel(req.server);
  const totalSteps = fields.length + 1;
  let outcome: FormOutcome = { action: 'cancel' };

  /** Field `i`; afterwards the next field, or straight back to the review when changing one field. */
  const fieldStep = (i: number, backToReview: boolean): InputStep => async input => {
    const f = fields[i];
    const value = await askField(input, f, values[f.name], { title, step: i + 1, totalSteps, server });
    setValue(values, f.name, value);
    return backToReview || i + 1 >= fields.length ? review : fieldStep(i + 1, false);
  };

  const review: InputStep = async input => {
    const problems = validateContent(fields, toContent(fields, values));
    const invalid = new Map(problems.filter(p => p.field).map(p => [p.field!, p.message]));
    const submit: ReviewItem = {
      label: `$(check) ${req.wording?.submit ?? vscode.l10n.t('Submit')}`,
      description: req.wording?.submitDescription ?? vscode.l10n.t('send these answers to "{0}"', server),
      detail: problems.length ? `⚠ ${problems.map(p => p.message).join(' ')}` : undefined,
      run: 'submit',
    };
    const items: ReviewItem[] = [
      submit,
      ...(fields.length ? [{ label: vscode.l10n.t('Change an answer'), kind: vscode.QuickPickItemKind.Separator } as ReviewItem] : []),
      ...fields.map((f, i): ReviewItem => ({
        label: `$(${invalid.has(f.name) ? 'warning' : 'edit'}) ${pickText(f.label)}`,
        description: pickText(describeValue(f, values[f.name], { yes: vscode.l10n.t('Yes'), no: vscode.l10n.t('No'), skipped: vscode.l10n.t('(skipped)') })),
        field: i,
      })),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      ...(req.wording ? [] : [{ label: `$(circle-slash) ${vscode.l10n.t('Decline')}`, description: vscode.l10n.t('tell "{0}" you do not want to answer', server), run: 'decline' } as ReviewItem]),
      { label: `$(close) ${vscode.l10n.t('Cancel')}`, description: vscode.l10n.t('dismiss without answering'), run: 'cancel' },
    ];
    const picked = await input.showQuickPick<ReviewItem>({
      title,
      step: totalSteps,
      totalSteps,
      placeholder: req.wording?.placeholder ?? vscode.l10n.t('Review your answers, then submit them to "{0}"', server),
      items,
      activeItem: submit,
    });
    if (!('label' in picked)) return review;
    if (picked.field !== undefined) return fieldStep(picked.field, true);
    switch (picked.run) {
      case 'submit': {
        if (problems.length) {
          // Every step validates, so this only happens with a schema default the user never saw fail.
          const first = fields.findIndex(f => invalid.has(f.name));
          return first >= 0 ? fieldStep(first, true) : review;
        }
        outcome = { action: 'accept', content: toContent(fields, values) };
        return;
      }
      case 'decline': outcome = { action: 'decline' }; return;
      default: outcome = { action: 'cancel' }; return;
    }
  };

  const completed = await MultiStepInput.run(fields.length ? fieldStep(0, false) : review, { signal: req.signal });
  return completed ? outcome : { action: 'cancel' };
}

function setValue(values: FormValues, name: string, value: FieldValue | undefined): void {
  if (value === undefined) delete values[name];
  else values[name] = value;
}
