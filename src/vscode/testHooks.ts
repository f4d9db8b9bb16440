/**
 * Hooks for MCP Host's own integration tests, exported as `api.testing`. Not a stable API: tests cannot
 * type into the workbench's QuickInput from the extension host, so they reach the input a multi-step
 * flow shows (set `value` / `selectedItems`, then run `workbench.action.acceptSelectedQuickOpenItem`).
 */
import type { ElicitationUi } from './elicitation/elicitationUi';
import type { quickInputProbe } from './multiStepInput';

export interface McpHostTestHooks {
  /** The QuickPick/InputBox a multi-step flow shows right now, and an event when a new one appears. */
  readonly quickInput: typeof quickInputProbe;
  /** The elicitation UI (pending URL completions, `callWithUrlElicitation`). */
  readonly elicitation: ElicitationUi;
}
