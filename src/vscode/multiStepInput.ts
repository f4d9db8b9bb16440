/**
 * One helper for every multi-step QuickPick/InputBox flow (elicitation forms, prompt arguments,
 * resource-template variables). Pattern of vscode-extension-samples `quickinput-sample`: a flow is a
 * chain of steps, each a function that shows one input and returns the next step; the Back button
 * (and `workbench.action.quickInputBack`) returns to the previous step, Escape or hiding cancels,
 * "step x of n" is shown, validation may be async, and every listener is disposed in `finally`.
 *
 * ```ts
 * const state: { name?: string } = {};
 * const done = await MultiStepInput.run(async input => {
 *   state.name = await input.showInputBox({ title: 'New thing', step: 1, totalSteps: 1, value: '', prompt: 'Name', validate: async v => v ? undefined : 'Required' });
 * });
 * ```
 */
import * as vscode from 'vscode';
import { inputBoxText } from './notify';

/** Thrown by `showQuickPick`/`showInputBox` to steer the flow; a step may also throw them itself. */
export class InputFlowAction {
  private constructor(readonly name: string) {}
  static readonly back = new InputFlowAction('back');
  static readonly cancel = new InputFlowAction('cancel');
  static readonly resume = new InputFlowAction('resume');
}

/** A step shows one input and returns the step after it (or nothing when the flow is complete). */
export type InputStep = (input: MultiStepInput) => Thenable<InputStep | void>;

interface CommonParameters {
  readonly title: string;
  readonly step: number;
  readonly totalSteps: number;
  /** Extra title-bar buttons; a click resolves the show call with the button. */
  readonly buttons?: readonly vscode.QuickInputButton[];
  /** Keep the input open when focus moves elsewhere (default true: the user may look something up). */
  readonly ignoreFocusOut?: boolean;
  /** Asked when the input is hidden without a choice: true resumes the step, false cancels the flow. */
  readonly shouldResume?: () => Thenable<boolean>;
  /** Show the progress bar (e.g. while waiting for something in the background). */
  readonly busy?: boolean;
}

export interface QuickPickParameters<T extends vscode.QuickPickItem> extends CommonParameters {
  readonly items: readonly T[];
  readonly activeItem?: T;
  readonly placeholder?: string;
  readonly matchOnDescription?: boolean;
  readonly matchOnDetail?: boolean;
  /** Resolves the step with this item without the user, e.g. when a background condition is met. */
  readonly acceptWhen?: Thenable<T>;
}

export interface QuickPickManyParameters<T extends vscode.QuickPickItem> extends QuickPickParameters<T> {
  readonly selectedItems?: readonly T[];
  /**
   * Checked on accept (and shown in the placeholder while the selection changes): a message keeps the
   * input open, undefined accepts the selection.
   */
  readonly validate?: (selection: readonly T[]) => string | undefined;
}

/** What `validate` may return: nothing (valid), an error (blocks accepting) or a message with a severity. */
export type ValidationResult = string | vscode.InputBoxValidationMessage | undefined;

export interface InputBoxParameters extends CommonParameters {
  readonly value: string;
  readonly prompt: string;
  readonly placeholder?: string;
  readonly password?: boolean;
  /** Runs as the user types and again on accept; only `Error` results (or plain strings) block accepting. */
  readonly validate: (value: string) => ValidationResult | Promise<ValidationResult>;
}

export interface RunOptions {
  /** Aborting closes the visible input and ends the flow as cancelled (e.g. the server withdrew its request). */
  readonly signal?: AbortSignal;
}

/** Whether a validation result blocks accepting. */
export function isBlocking(result: ValidationResult): boolean {
  if (result === undefined) return false;
  if (typeof result === 'string') return result.length > 0;
  return result.severity === vscode.InputBoxValidationSeverity.Error;
}

// ---- the helper ------------------------------------------------------------------------------

export class MultiStepInput {
  /** Runs a flow from `start`. Resolves true when it completed, false when it was cancelled. */
  static async run(start: InputStep, options: RunOptions = {}): Promise<boolean> {
    const input = new MultiStepInput(options.signal);
    return input.stepThrough(start);
  }

  private current?: vscode.QuickInput;
  private readonly steps: InputStep[] = [];

  private constructor(private readonly signal?: AbortSignal) {}

  private async stepThrough(start: InputStep): Promise<boolean> {
    let step: InputStep | void = start;
    let completed = true;
    const onAbort = () => this.current?.hide();
    this.signal?.addEventListener('abort', onAbort);
    try {
      while (step) {
        this.steps.push(step);
        if (this.current) {
          this.current.enabled = false;
          this.current.busy = true;
        }
        try {
          step = await step(this);
        } catch (err) {
          if (err === InputFlowAction.back) {
            this.steps.pop();
            step = this.steps.pop();
          } else if (err === InputFlowAction.resume) {
            step = this.steps.pop();
          } else if (err === InputFlowAction.cancel) {
            step = undefined;
            completed = false;
          } else {
            throw err;
          }
        }
      }
    } finally {
      this.signal?.removeEventListener('abort', onAbort);
      this.current?.dispose();
      this.current = undefined;
    }
    return completed;
  }

  /** Shows a single-choice QuickPick; resolves with the picked item or a clicked title button. */
  async showQuickPick<T extends vscode.QuickPickItem>(p: QuickPickParameters<T>): Promise<T | vscode.QuickInputButton> {
    const result = await this.pick(p, false);
    return Array.isArray(result) ? result[0] : result as T | vscode.QuickInputButton;
  }

  /** Shows a multi-choice QuickPick (checkboxes); resolves with the checked items or a clicked title button. */
  async showQuickPickMany<T extends vscode.QuickPickItem>(p: QuickPickManyParameters<T>): Promise<readonly T[] | vscode.QuickInputButton> {
    return this.pick(p, true);
  }

  private async pick<T extends vscode.QuickPickItem>(p: QuickPickManyParameters<T>, many: boolean): Promise<readonly T[] | vscode.QuickInputButton> {
    this.throwIfAborted();
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<readonly T[] | vscode.QuickInputButton>((resolve, reject) => {
        const input = vscode.window.createQuickPick<T>();
        this.setCommon(input, p);
        input.placeholder = p.placeholder;
        input.matchOnDescription = p.matchOnDescription ?? false;
        input.matchOnDetail = p.matchOnDetail ?? false;
        input.canSelectMany = many;
        input.items = p.items;
        if (many) input.selectedItems = p.selectedItems ?? p.items.filter(i => i.picked);
        else if (p.activeItem) input.activeItems = [p.activeItem];
        const placeholder = () => {
          const problem = many && p.validate?.(input.selectedItems);
          input.placeholder = problem ? `⚠ ${problem}` : p.placeholder;
        };
        disposables.push(
          input.onDidTriggerButton(button => button === vscode.QuickInputButtons.Back ? reject(InputFlowAction.back) : resolve(button)),
          input.onDidAccept(() => {
            const chosen = many || input.selectedItems.length ? input.selectedItems : input.activeItems;
            if (many) {
              const problem = p.validate?.(chosen);
              if (problem) { input.placeholder = `⚠ ${problem}`; return; }
            } else if (!chosen.length) {
              return;
            }
            resolve(chosen);
          }),
          input.onDidChangeSelection(() => { if (many) placeholder(); }),
          input.onDidHide(() => this.onHide(p, reject)),
        );
        p.acceptWhen?.then(item => resolve([item]), () => undefined);
        this.show(input);
      });
    } finally {
      disposables.forEach(d => d.dispose());
    }
  }

  /** Shows an InputBox; resolves with the accepted (valid) text or a clicked title button. */
  async showInputBox(p: InputBoxParameters): Promise<string | vscode.QuickInputButton> {
    this.throwIfAborted();
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<string | vscode.QuickInputButton>((resolve, reject) => {
        const input = vscode.window.createInputBox();
        this.setCommon(input, p);
        input.value = p.value;
        // VS Code renders the prompt and the validation message with live links: both may quote a server's text.
        input.prompt = inputBoxText(p.prompt);
        input.placeholder = p.placeholder;
        input.password = p.password ?? false;
        // Only the newest validation may set the message (results of older keystrokes arrive late).
        let latest: Promise<ValidationResult> | undefined;
        const validate = async (text: string): Promise<ValidationResult> => {
          const current = Promise.resolve(p.validate(text));
          latest = current;
          const result = await current;
          if (current === latest) input.validationMessage = typeof result === 'object' ? { ...result, message: inputBoxText(result.message) } : inputBoxText(result);
          return result;
        };
        disposables.push(
          input.onDidTriggerButton(button => button === vscode.QuickInputButtons.Back ? reject(InputFlowAction.back) : resolve(button)),
          input.onDidAccept(async () => {
            // The value may have been set without a change event (programmatically), so validate again here.
            const value = input.value;
            input.enabled = false;
            input.busy = true;
            try {
              if (!isBlocking(await validate(value))) resolve(value);
            } catch (e) {
              reject(e);
            } finally {
              input.enabled = true;
              input.busy = false;
            }
          }),
          input.onDidChangeValue(text => { void validate(text).catch(() => undefined); }),
          input.onDidHide(() => this.onHide(p, reject)),
        );
        // A prefilled value is checked at once; an empty box is not scolded before the user typed.
        if (p.value) void validate(p.value).catch(() => undefined);
        this.show(input);
      });
    } finally {
      disposables.forEach(d => d.dispose());
    }
  }

  private setCommon(input: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, p: CommonParameters): void {
    input.title = p.title;
    input.step = p.step;
    input.totalSteps = p.totalSteps;
    input.ignoreFocusOut = p.ignoreFocusOut ?? true;
    input.busy = p.busy ?? false;
    input.buttons = [...(this.steps.length > 1 ? [vscode.QuickInputButtons.Back] : []), ...(p.buttons ?? [])];
  }

  private show(input: vscode.QuickInput): void {
    this.current?.dispose();
    this.current = input;
    input.show();
  }

  private onHide(p: CommonParameters, reject: (reason: unknown) => void): void {
    void (async () => {
      reject(!this.signal?.aborted && p.shouldResume && await p.shouldResume() ? InputFlowAction.resume : InputFlowAction.cancel);
    })().catch(reject);
  }

  private throwIfAborted(): void {
    if (this.signal?.aborted) throw InputFlowAction.cancel;
  }
}
