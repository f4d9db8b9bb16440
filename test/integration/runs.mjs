// Integration runs: each entry starts its own fresh code-server + browser (~12 s) and runs the test
// files under test/integration/<dir> (recursively, minus the dirs of the other runs). Use a separate
// run only for what cannot change while VS Code is running: Workspace Trust, the opened folder,
// environment variables of the extension host, settings that must be present at startup.
// Everything else belongs in the default run (change settings at run time with helpers.setSetting).
//
// Fields (all optional except name):
//   name            label in the output and artifact prefix (.test-artifacts/<name>-workbench.png)
//   dir             folder under test/integration holding this run's tests ('' = the top level)
//   workspace       fixture folder (relative to the repo root) copied to a temp dir and opened;
//                   default test/fixtures/workspace; null opens no folder
//   settings        user settings (merged over BASE_SETTINGS in test/rig/runIntegration.mjs)
//   env             extra environment variables of the code-server process (the extension host inherits them)
//   workspaceTrust  true: Workspace Trust enabled (the copied folder opens in Restricted Mode)
//   timeoutMs       whole-run timeout (default 300 s)
/** @type {import('../rig/runIntegration.mjs').RunDefinition[]} */
export const runs = [
  { name: 'integration', dir: '' },
  // Example: { name: 'restricted', dir: 'restricted', workspaceTrust: true, settings: { 'mcpHost.x': 1 }, env: { FOO: 'bar' } },
];
