/**
 * VS Code's theme, as the app's standard style variables (MCP Apps `hostContext.styles`): the webview
 * reads the `--vscode-*` values the workbench gives it, the host maps them here. Values are passed on
 * only when they look like plain CSS values, so nothing the page reports can inject more CSS.
 */

/** App variable ← VS Code variable (first one present wins). */
const MAP: Record<string, readonly string[]> = {
  '--color-background-primary': ['--vscode-editor-background'],
  '--color-background-secondary': ['--vscode-sideBar-background', '--vscode-editorWidget-background'],
  '--color-background-tertiary': ['--vscode-input-background'],
  '--color-background-inverse': ['--vscode-editor-foreground'],
  '--color-background-info': ['--vscode-inputValidation-infoBackground'],
  '--color-background-danger': ['--vscode-inputValidation-errorBackground'],
  '--color-background-warning': ['--vscode-inputValidation-warningBackground'],
  '--color-text-primary': ['--vscode-editor-foreground', '--vscode-foreground'],
  '--color-text-secondary': ['--vscode-descriptionForeground'],
  '--color-text-inverse': ['--vscode-editor-background'],
  '--color-text-info': ['--vscode-textLink-foreground'],
  '--color-text-danger': ['--vscode-errorForeground'],
  '--color-text-warning': ['--vscode-editorWarning-foreground'],
  '--color-text-disabled': ['--vscode-disabledForeground'],
  '--color-border-primary': ['--vscode-panel-border', '--vscode-widget-border'],
  '--color-border-secondary': ['--vscode-input-border', '--vscode-widget-border'],
  '--color-ring-primary': ['--vscode-focusBorder'],
  '--font-sans': ['--vscode-font-family'],
  '--font-mono': ['--vscode-editor-font-family'],
  '--font-text-md-size': ['--vscode-font-size'],
};

/** The VS Code variables the webview should report. */
export const VSCODE_STYLE_VARIABLES: readonly string[] = [...new Set(Object.values(MAP).flat())];

const SAFE_VALUE = /^[\w\s#%.,()'"+-]{1,200}$/;

export function appStyleVariables(vscodeValues: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [appVar, sources] of Object.entries(MAP)) {
    for (const s of sources) {
      const v = vscodeValues[s];
      if (typeof v === 'string' && SAFE_VALUE.test(v.trim()) && !/url\s*\(|expression\s*\(/i.test(v)) { out[appVar] = v.trim(); break; }
    }
  }
  return out;
}
