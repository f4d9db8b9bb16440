/**
 * The error notification of a failing server, answered by a person (test/ui-workbench/d-notifications.test.mjs
 * clicks its "Show Log" button; the Output view must then show that server's channel with the failure), and
 * what a person reads in it when the server's stderr is hostile.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting, waitFor, workspaceRoot } from '../helpers';
import { declareServers, fixture, nodeServer, readExtensionLogs, waitState } from '../mcpHost';
import { uiStep } from './bridge';

/** A Markdown link to a command, as VS Code's notifications would render it: clickable, running the command. */
const LINK = '[Open the terminal](command:workbench.action.terminal.new)';
interface ReadNotification { error?: string; count?: number; text?: string; links?: string[] }

describe('error notification of a server', function () {
  this.timeout(180_000);
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.autoRestart.maxRestarts', undefined);
  });

  it('"Show Log" opens the server\'s output channel', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 0);
    const a = await declareServers({ broken: { command: process.execPath, args: ['-e', 'process.stderr.write("broken-server-marker\\n"); process.exit(3)'] } });
    await waitState(a.host.require('broken'), 'error', 20_000);
    const result = (await uiStep('show-log', { server: 'broken' }, 120_000)) as { error?: string; channel?: string };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    assert.equal(result.channel, 'MCP: broken');
  });

  it('attacker: a server that will not start, with hostile stderr, gets one notification: its cleaned last lines, no link of its own, Show Log / Restart / Edit Settings', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 0);
    const a = await declareServers({ hostile: { command: process.execPath, args: [fixture('refusesToStart')], env: { FIXTURE_REFUSAL: 'hostile', FIXTURE_FLOOD_MB: '0' } } });
    await waitState(a.host.require('hostile'), 'error', 20_000);
    const result = (await uiStep('hostile-notification', { server: 'hostile' }, 120_000)) as { error?: string; count?: number; text?: string; links?: string[]; buttons?: string[] };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    assert.equal(result.count, 1, 'one notification for one failure');
    assert.match(result.text!, /MCP server "hostile": .*Its last stderr lines: .*missing API_KEY yek eht/);
    assert.match(result.text!, /Verified by MCP Host/, 'the third-last line is there, as text');
    assert.doesNotMatch(result.text!, /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, JSON.stringify(result.text));
    assert.ok(result.text!.length < 1500, `a notification of ${result.text!.length} characters`);
    assert.deepEqual(result.links, [], 'a link the server wrote would be clickable in MCP Host\'s notification');
    assert.deepEqual(result.buttons, ['Show Log', 'Restart', 'Edit Settings']);
  });

  // Attacker: a server's resource is binary data whose MIME type writes a command link.
  it('attacker: the binary-resource notification shows the server\'s MIME type as text, no link', async () => {
    const a = await declareServers({ hidden: nodeServer(fixture('hiddenText')) });
    await waitState(a.host.require('hidden'), 'running');
    try {
      void vscode.commands.executeCommand('mcpHost.openResource', { server: 'hidden', uri: 'hidden://blob' });
      const result = (await uiStep('binary-notification', { match: 'is binary data' }, 120_000)) as ReadNotification;
      assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
      assert.match(result.text!, /\[Open the terminal\] \(command:workbench\.action\.terminal\.new\)/, 'the MIME type is there, as text');
      assert.deepEqual(result.links, [], 'the server\'s MIME type would be a clickable link in the notification');
    } finally {
      await declareServers(undefined);
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  // Attacker: a server in dev mode names the file it keeps writing into its own watched folder.
  it('attacker: the dev.watch limit notification names the server\'s file as text, no link', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 1);
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'devloop-link');
    await vscode.workspace.fs.createDirectory(folder);
    const a = await declareServers({
      linkWriter: { ...nodeServer(fixture('debuggee')), env: { FIXTURE_TOUCH: vscode.Uri.joinPath(folder, `${LINK}.js`).fsPath, FIXTURE_TOUCH_EVERY: '800' }, dev: { watch: 'devloop-link/**/*.js' } },
    });
    try {
      await waitFor(async () => /Watch restarts are paused/.test([...(await readExtensionLogs(a)).values()].join('\n')), 90_000, 'linkWriter\'s watch restarts to stop with a message');
      const result = (await uiStep('watch-notification', { match: 'MCP server "linkWriter" restarted' }, 120_000)) as ReadNotification;
      assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
      assert.match(result.text!, /devloop-link\/\[Open the terminal\] \(command:workbench\.action\.terminal\.new\)\.js/, 'the file is named, as text');
      assert.deepEqual(result.links, [], 'a link the server wrote as a file name would be clickable in the notification');
    } finally {
      await declareServers(undefined);
      await vscode.workspace.fs.delete(folder, { recursive: true });
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  // Attacker: a server's prompt fails with an error message that writes a command link (issue 28 §7:
  // every notification, not only the ones a past review named, shows server text as text).
  it('attacker: Run Prompt\'s error notification shows the server\'s error message as text, no link', async () => {
    const a = await declareServers({ hidden: nodeServer(fixture('hiddenText')) });
    await waitState(a.host.require('hidden'), 'running');
    try {
      const outcome = await vscode.commands.executeCommand<{ status: string; message?: string }>('mcpHost.runPrompt', { server: 'hidden', prompt: 'refuse', openIn: 'editor' });
      assert.equal(outcome.status, 'error', JSON.stringify(outcome));
      const result = (await uiStep('prompt-error-notification', { match: 'Quota exceeded' }, 120_000)) as ReadNotification;
      assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
      assert.deepEqual(result.links, [], 'the server\'s error message would be a clickable link in the notification');
      assert.match(result.text!, /\[Open the terminal\] \(command:workbench\.action\.terminal\.new\) to fix it/, 'the server\'s message is there, as text');
    } finally {
      await declareServers(undefined);
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  // Attacker: a server whose own title (serverInfo.title) writes a link asks for a form MCP Host cannot show.
  it('attacker: the elicitation notification names the server by its title as text, no link', async () => {
    const a = await declareServers({ elicits: { ...nodeServer(fixture('eliciting')), env: { FIXTURE_TITLE: LINK } } });
    await waitState(a.host.require('elicits'), 'running');
    try {
      const answer = await a.host.require('elicits').callTool('ask-form', { schema: JSON.stringify({ type: 'object', properties: { code: { type: 'string', minLength: 5, maxLength: 1 } } }) });
      assert.match(JSON.stringify(answer.content), /decline/, 'a form that cannot be shown is declined');
      const result = (await uiStep('elicitation-notification', { match: 'asked for input with a form that cannot be shown' }, 120_000)) as ReadNotification;
      assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
      assert.deepEqual(result.links, [], 'the server\'s title would be a clickable link in the notification');
      assert.match(result.text!, /MCP server "\[Open the terminal\] \(command:workbench\.action\.terminal\.new\) \(elicits\)"/, 'the server is named by its title, as text');
    } finally {
      await declareServers(undefined);
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  // Found by an outside attack: a progress notification's title rendered a tool's title as a live link.
  it('attacker: the Run Tool progress notification shows the tool\'s title as text, no link', async () => {
    const a = await declareServers({ linked: nodeServer(fixture('linkTitle')) });
    await waitState(a.host.require('linked'), 'running');
    await waitFor(() => a.host.get('linked')?.tool('slow'), 20_000, 'the slow tool');
    try {
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('mcpHost.runToolWithJson', { server: 'linked', tool: 'slow' });
      void vscode.commands.executeCommand('mcpHost.runToolDraft', editor.document.uri);
      const result = (await uiStep('progress-notification', { match: 'Running' }, 120_000)) as ReadNotification;
      assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
      assert.deepEqual(result.links, [], 'the tool\'s title would be a clickable link in the progress notification');
      assert.match(result.text!, /\[Open the terminal\] \(command:workbench\.action\.terminal\.new\)/, 'the title is there, as text');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await declareServers(undefined);
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  // Found by an outside attack: VS Code renders an InputBox's validation message with live links, and an
  // elicitation's "… is required." names the server's field title.
  it('attacker: the elicitation InputBox\'s validation message shows a field\'s title as text, no link', async () => {
    const a = await declareServers({ elicits: nodeServer(fixture('eliciting')) });
    await waitState(a.host.require('elicits'), 'running');
    try {
      const schema = JSON.stringify({ type: 'object', properties: { code: { type: 'string', title: LINK } }, required: ['code'] });
      const call = a.host.require('elicits').callTool('ask-form', { schema }).catch(() => undefined);
      await waitFor(() => a.testing?.quickInput.active, 20_000, 'the form input');
      // Accepting the empty box asks for the required value. The box is active in the API before the
      // workbench shows it; an accept sent earlier is lost, so wait until it is on screen.
      await uiStep('validation-box-shown', {}, 60_000);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const result = (await uiStep('validation-message', {}, 120_000)) as ReadNotification;
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await call;
      assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
      assert.deepEqual(result.links, [], 'the field\'s title would be a clickable link in the validation message');
      assert.match(result.text!, /\[Open the terminal\] \(command:workbench\.action\.terminal\.new\) is required/, 'the title is there, as text');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await declareServers(undefined);
    }
  });
});
