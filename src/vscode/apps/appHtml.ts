/**
 * The webview document around an app. The app runs in a sandboxed `srcdoc` frame without
 * `allow-same-origin` (an opaque origin: no access to this document, `acquireVsCodeApi`, storage or
 * the workbench), under the policy built from its own `_meta.ui.csp` — the frame inherits this
 * document's policy, and the relay below needs nothing beyond it. The relay only passes the app's
 * postMessage traffic through (with the browser's user activation at that moment, which the app's
 * script cannot set: only the user's own clicks and keys do, and they propagate up from the app's
 * frame) and reports the theme variables, the size and the loads the policy refused. Those
 * violations are seen only inside the app's frame, so a small listener goes in front of the app's
 * document; the app could post such a report itself, which only writes to its own server's log.
 */
import { VSCODE_STYLE_VARIABLES, type AppDocument } from '../../core';

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const VIOLATION_KEY = 'mcpHost/cspViolation';

/** Reports each refused load once (directive and URI) to the relay; put before the app's own code. */
const VIOLATION_REPORTER = `<script>(() => {
  const seen = new Set();
  document.addEventListener('securitypolicyviolation', e => {
    const v = { directive: String(e.effectiveDirective || e.violatedDirective || ''), blocked: String(e.blockedURI || '').slice(0, 300) };
    const key = v.directive + ' ' + v.blocked;
    if (seen.has(key) || seen.size >= 100) return;
    seen.add(key);
    parent.postMessage({ ${JSON.stringify(VIOLATION_KEY)}: v }, '*');
  }, true);
})();</script>`;

/** The app's HTML with the violation reporter first (after a doctype, so the document's mode stays the app's). */
export function withViolationReporter(html: string): string {
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + VIOLATION_REPORTER + html.slice(doctype[0].length) : VIOLATION_REPORTER + html;
}

export function appWebviewHtml(doc: AppDocument, title: string): string {
  const relay = `(() => {
  const vscode = acquireVsCodeApi();
  const vars = ${JSON.stringify(VSCODE_STYLE_VARIABLES)};
  const frame = () => document.getElementById('app');
  window.addEventListener('message', e => {
    const f = frame();
    if (f && e.source === f.contentWindow) {
      const v = e.data && e.data[${JSON.stringify(VIOLATION_KEY)}];
      if (v && typeof v === 'object') { vscode.postMessage({ kind: 'violation', directive: String(v.directive).slice(0, 100), blocked: String(v.blocked).slice(0, 300) }); return; }
      // Read when the message arrives: the user's click or key press in the app counts for a few seconds.
      const active = !!(navigator.userActivation && navigator.userActivation.isActive);
      try { vscode.postMessage({ kind: 'rpc', message: JSON.parse(JSON.stringify(e.data)), active }); } catch { /* not JSON: dropped */ }
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
<iframe id="app" title="${attr(title)}" sandbox="allow-scripts allow-forms" srcdoc="${attr(withViolationReporter(doc.html))}"></iframe>
</body></html>`;
}
