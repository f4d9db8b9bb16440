// `npm start`: a real VS Code (code-server) in your browser with MCP Host and two demo MCP servers.
//
//   npm start                 → http://127.0.0.1:8080/   (PORT=9000 npm start for another port)
//
// 1. makes sure the test rig's Node 24 + code-server are installed (install.mjs; first time ~2 min);
// 2. builds the production bundle (no test hooks, as in the Marketplace .vsix), packages it as a .vsix
//    and installs it into a fresh extensions folder — the web
//    workbench loads a development extension only through the test payload, which needs
//    `--vscode-option enable-smoke-test-driver`; a person gets the plain workbench instead;
// 4. copies test/fixtures/demo-workspace to a temp folder, writing the absolute paths of this Node and
//    of node_modules into its .vscode/settings.json (server-everything and server-filesystem run offline);
// 5. starts code-server on 127.0.0.1:PORT with that folder and `--disable-workspace-trust`: the demo
//    folder is ours, so it is trusted up front and its workspace-declared servers start right away
//    (in a normal VS Code you would be asked to trust a folder before its servers start);
// 6. on Ctrl-C (or SIGTERM) stops code-server's whole process group (extension host and MCP servers
//    included) and deletes the temp folder.
// Everything (user data, extensions, HOME) is fresh per start; your own VS Code settings are not touched.
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageExtension } from './package.mjs';
import { startCodeServer } from './codeServer.mjs';
import { ensureInstalled, PrerequisiteError } from './install.mjs';
import { BASE_SETTINGS, REPO_ROOT } from './runIntegration.mjs';

const DEMO_TEMPLATE = path.join(REPO_ROOT, 'test', 'fixtures', 'demo-workspace');
const say = (s) => console.log(`[start] ${s}`);

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** Copies the demo workspace template and fills in the absolute paths its settings need. */
async function prepareDemoWorkspace(parent) {
  const folder = path.join(parent, 'mcp-host-demo');
  await fs.cp(DEMO_TEMPLATE, folder, { recursive: true });
  const settingsFile = path.join(folder, '.vscode', 'settings.json');
  const text = await fs.readFile(settingsFile, 'utf8');
  // JSON-escaped, so a path with a backslash or quote still gives valid JSON.
  const json = (s) => JSON.stringify(s).slice(1, -1);
  await fs.writeFile(settingsFile, text
    .replaceAll('{{node}}', json(process.execPath))
    .replaceAll('{{modules}}', json(path.join(REPO_ROOT, 'node_modules'))));
  return folder;
}

async function main() {
  const port = Number(process.env.PORT || 8080);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT=${process.env.PORT} is not a port number`);
  if (!(await portFree(port))) throw new Error(`port ${port} on 127.0.0.1 is in use; choose another: PORT=${port + 1} npm start`);

  await ensureInstalled({ log: say });

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-start-'));
  let server;
  let folder;
  let stopping;
  const stop = (reason, code) => {
    stopping ??= (async () => {
      if (reason) say(reason);
      await server?.stop().catch(() => {});
      await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});
      process.exit(code);
    })();
    return stopping;
  };
  process.on('SIGINT', () => { void stop('stopping (Ctrl-C) ...', 0); });
  process.on('SIGTERM', () => { void stop('stopping (SIGTERM) ...', 0); });

  try {
    const t = Date.now();
    // The product as users get it: the production bundle (no test hooks), built fresh.
    const { file: vsix } = await packageExtension({ out: path.join(tmp, 'mcp-host.vsix'), production: true });
    folder = await prepareDemoWorkspace(tmp);
    server = await startCodeServer({
      folder,
      port,
      installExtensions: [vsix],
      smokeTestDriver: false,
      handleSignals: false,
      workspaceTrust: false, // → --disable-workspace-trust (see the header)
      tmpRoot: tmp,
      settings: {
        ...BASE_SETTINGS,
        'workbench.startupEditor': 'readme', // opens the demo folder's README.md
        'workbench.colorTheme': 'Default Dark Modern',
        'workbench.secondarySideBar.defaultVisibility': 'hidden', // the Chat view needs a sign-in offline
      },
    });
    say(`ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } catch (e) {
    await stop(undefined, 1);
    throw e;
  }

  console.log(`
  MCP Host is running in VS Code (code-server) at

      ${server.url}/

  Demo workspace: ${folder} (a fresh copy, deleted on exit)
  Open the MCP view in the activity bar to see the servers "everything" and "files".
  code-server log: ${server.logFile}
  Press Ctrl-C to stop.
`);
  const exit = await server.exited;
  if (!stopping) {
    console.error(`[start] code-server exited (${exit.signal ?? exit.code}):\n${await server.output()}`);
    await stop(undefined, 1);
  }
}

main().catch((e) => {
  console.error(`[start] ${e instanceof PrerequisiteError ? 'missing prerequisite: ' : ''}${e.message}`);
  process.exit(e instanceof PrerequisiteError ? 2 : 1);
});
