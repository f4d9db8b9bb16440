/**
 * The webview document around an app. The app runs in a sandboxed `srcdoc` frame without
 * `allow-same-origin` (an opaque origin: no access to this document, `acquireVsCodeApi`, storage or
 * the workbench), under the policy built from its own `_meta.ui.csp` — the frame inherits this
 * document's policy, and the relay below needs nothing beyond it. The relay only passes the app's
 * postMessage traffic through and reports the theme variables and the size.
 */
import { VSCODE_STYLE_VARIABLES, type AppDocument } from '../../core';

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function appWebviewHtml(doc: AppDocument, title: string): string {
  const relay = `(() => {
  const vscode = acquireVsCodeApi();
  const vars = ${JSON.stringify(VSCODE_STYLE_VARIABLES)};
  const frame = () => document.getElementById('app');
  window.addEventListener('message', e => {
    const f = frame();
    if (f && e.source === f.contentWindow) {
      try { vscode.postMessage({ kind: 'rpc', message: JSON.parse(JSON.stringify(e.data)) }); } catch { /* not JSON: dropped */ }
      return;
    }
    const d = e.data;
    if (d && d.kind === 'rpc' && f && f.contentWindow) f.contentWindow.postMessage(d.message, '*');
  });
  const report = () => {
    const style = getComputedStyle(document.documentElement);
    const variables = {};
    for (const v of vars) { const x = style.getPropertyValue(v).trim(); if (x) variables[v] = x; }
    vscode.postMessage({ kind: 'host', variables, width: window.innerWidth, height: window.innerHeight });
  };
  window.addEventListener('resize', report);
  window.addEventListener('DOMContentLoaded', () => {
    report();
    // VS Code changes these when the colour theme changes.
    new MutationObserver(report).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    new MutationObserver(report).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  });
})();`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(doc.csp.policy)}">
<title>${attr(title)}</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>
<script>${relay}</script>
</head><body>
<iframe id="app" title="${attr(title)}" sandbox="allow-scripts allow-forms" srcdoc="${attr(doc.html)}"></iframe>
</body></html>`;
}
