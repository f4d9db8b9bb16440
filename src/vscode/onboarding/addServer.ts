/**
 * "MCP: Add Server…" — one multi-step flow (Back, step count, validation as you type):
 * kind (npm package / command / HTTP URL / import) → what to run → environment variables or headers
 * (secret values go to SecretStorage, settings get `${input:id}`) → name → user or workspace settings.
 * The declaration is checked by the core's parser before it is written; the host starts it when the
 * settings change, and the flow reports how the start went.
 */
import * as vscode from 'vscode';
import {
  buildServer, isPackageSpec, isSecretName, isValidServerName, looksLikeToken, splitCommandLine, suggestServerName,
  type AddServerAnswers, type Entry,
} from '../../core/onboarding';
import { InputFlowAction, MultiStepInput, type InputStep } from '../multiStepInput';
import { declareAndStart, type OnboardingContext } from './declareAndStart';
import { declaredInputs, declaredServers, hasWorkspace, type Target } from './settingsWriter';
import { showError } from '../notify';

export type AddServerResult =
  | { readonly status: 'added'; readonly name: string; readonly target: Target; readonly state?: string; readonly message?: string }
  | { readonly status: 'cancelled' }
  | { readonly status: 'import' };

type Kind = 'npm' | 'command' | 'http' | 'import';

interface State {
  kind?: Kind;
  package: string;
  argsLine: string;
  commandLine: string;
  url: string;
  env: Entry[];
  headers: Entry[];
  name?: string;
  target?: Target;
}

interface KindItem extends vscode.QuickPickItem { readonly serverKind: Kind }
interface TargetItem extends vscode.QuickPickItem { readonly target: Target }
interface EntryItem extends vscode.QuickPickItem { readonly action: 'continue' | 'add' | 'remove'; readonly entry?: Entry }

export async function addServer(ctx: OnboardingContext): Promise<AddServerResult> {
  const state: State = { package: '', argsLine: '', commandLine: '', url: '', env: [], headers: [] };
  const title = vscode.l10n.t('Add MCP Server');
  const withTarget = hasWorkspace();
  // Until the kind is known, count the longest path (npm), so the count shrinks rather than grows.
  const total = () => (!state.kind || state.kind === 'npm' ? 5 : 4) + (withTarget ? 1 : 0);
  const taken = () => new Set(declaredServers().keys());

  const pickKind: InputStep = async input => {
    const items: KindItem[] = [
      { serverKind: 'npm', label: `$(package) ${vscode.l10n.t('npm package')}`, detail: vscode.l10n.t('Runs "npx -y <package>"; npm downloads the package on the first start.') },
      { serverKind: 'command', label: `$(terminal) ${vscode.l10n.t('Command (stdio)')}`, detail: vscode.l10n.t('A program on this computer that speaks MCP on its standard input and output.') },
      { serverKind: 'http', label: `$(globe) ${vscode.l10n.t('HTTP URL')}`, detail: vscode.l10n.t('A remote server (Streamable HTTP, falling back to SSE), with optional headers.') },
      { serverKind: 'import', label: `$(cloud-download) ${vscode.l10n.t('Import from Claude Desktop, Cursor or VS Code…')}`, detail: vscode.l10n.t('Copies servers from another app\'s MCP configuration.') },
    ];
    const picked = await input.showQuickPick({
      title, step: 1, totalSteps: total(), items, placeholder: vscode.l10n.t('What kind of MCP server do you want to add?'),
      activeItem: items.find(i => i.serverKind === state.kind),
    });
    if (!('serverKind' in picked)) throw InputFlowAction.resume;
    state.kind = picked.serverKind;
    return picked.serverKind === 'npm' ? askPackage : picked.serverKind === 'command' ? askCommand : picked.serverKind === 'http' ? askUrl : undefined;
  };

  const askPackage: InputStep = async input => {
    state.package = await text(input.showInputBox({
      title, step: 2, totalSteps: total(), value: state.package,
      prompt: vscode.l10n.t('npm package to run with npx, e.g. @modelcontextprotocol/server-everything (a version, a local folder or a .tgz file work too)'),
      placeholder: '@modelcontextprotocol/server-everything',
      validate: v => !v.trim() ? vscode.l10n.t('Enter a package name.') : isPackageSpec(v) ? undefined : vscode.l10n.t('"{0}" is not an npm package name, a path or a file:/git URL.', v.trim()),
    }));
    return askArgs;
  };

  const askArgs: InputStep = async input => {
    state.argsLine = await text(input.showInputBox({
      title, step: 3, totalSteps: total(), value: state.argsLine,
      prompt: vscode.l10n.t('Arguments after the package, as on a command line (optional; press Enter to skip). ${workspaceFolder} and ${userHome} work here.'),
      validate: v => splitCommandLine(v).error ? vscode.l10n.t('A quote is not closed.') : undefined,
    }));
    return askEntries('env', 4);
  };

  const askCommand: InputStep = async input => {
    state.commandLine = await text(input.showInputBox({
      title, step: 2, totalSteps: total(), value: state.commandLine,
      prompt: vscode.l10n.t('Command line that starts the server, e.g. node /path/to/server.js or uvx mcp-server-git (quote arguments with spaces)'),
      placeholder: 'node server.js --stdio',
      validate: v => {
        const split = splitCommandLine(v);
        if (split.error) return vscode.l10n.t('A quote is not closed.');
        return split.args.length ? undefined : vscode.l10n.t('Enter the command to run.');
      },
    }));
    return askEntries('env', 3);
  };

  const askUrl: InputStep = async input => {
    state.url = await text(input.showInputBox({
      title, step: 2, totalSteps: total(), value: state.url,
      prompt: vscode.l10n.t('URL of the server\'s MCP endpoint, e.g. https://example.com/mcp'),
      placeholder: 'https://example.com/mcp',
      validate: validateUrl,
    }));
    return askEntries('headers', 3);
  };

  const askEntries = (which: 'env' | 'headers', step: number): InputStep => async input => {
    for (;;) {
      const list = state[which];
      const items: EntryItem[] = [
        { action: 'continue', label: `$(arrow-right) ${vscode.l10n.t('Continue')}`, description: list.length ? undefined : vscode.l10n.t('none needed') },
        { action: 'add', label: `$(add) ${which === 'env' ? vscode.l10n.t('Add environment variable…') : vscode.l10n.t('Add header…')}` },
        ...list.map<EntryItem>(e => ({
          action: 'remove', entry: e, label: e.name,
          description: e.secret ? `$(lock) ${vscode.l10n.t('secret')}` : e.value,
          detail: vscode.l10n.t('Select to remove'),
        })),
      ];
      const picked = await input.showQuickPick({
        title, step, totalSteps: total(), items,
        placeholder: which === 'env'
          ? vscode.l10n.t('Environment variables for the server (API keys are stored as secrets)')
          : vscode.l10n.t('HTTP headers sent with every request (tokens are stored as secrets)'),
      });
      if (!('action' in picked)) continue;
      if (picked.action === 'continue') return askName(step + 1);
      if (picked.action === 'remove') state[which] = list.filter(e => e !== picked.entry);
      else {
        const entry = await askEntry(which, list.map(e => e.name));
        if (entry) state[which] = [...list.filter(e => e.name !== entry.name), entry];
      }
    }
  };

  const askName = (step: number): InputStep => async input => {
    const existing = taken();
    const suggestion = state.name ?? suggestServerName(
      state.kind === 'npm' ? { package: state.package } : state.kind === 'http' ? { url: state.url } : { command: splitCommandLine(state.commandLine).args ?? [] },
      existing,
    );
    state.name = (await text(input.showInputBox({
      title, step, totalSteps: total(), value: suggestion,
      prompt: vscode.l10n.t('Name of the server (it prefixes its tools and appears in the MCP view)'),
      validate: v => {
        const name = v.trim();
        if (!isValidServerName(name)) return vscode.l10n.t('Use letters, digits, "_", "-" and "." (at most 64).');
        if (existing.has(name)) return vscode.l10n.t('A server named "{0}" is already declared; choose another name.', name);
        return undefined;
      },
    }))).trim();
    return withTarget ? askTarget(step + 1) : undefined;
  };

  const askTarget = (step: number): InputStep => async input => {
    const items: TargetItem[] = [
      { target: 'user', label: `$(account) ${vscode.l10n.t('User settings')}`, detail: vscode.l10n.t('Available in every workspace.') },
      { target: 'workspace', label: `$(folder) ${vscode.l10n.t('Workspace settings')}`, detail: vscode.l10n.t('Only in this workspace; workspace servers start only when the workspace is trusted.') },
    ];
    const picked = await input.showQuickPick({
      title, step, totalSteps: total(), items, placeholder: vscode.l10n.t('Where should the server be declared?'),
      activeItem: items.find(i => i.target === state.target),
    });
    if (!('target' in picked)) throw InputFlowAction.resume;
    state.target = picked.target;
  };

  const completed = await MultiStepInput.run(pickKind);
  if (!completed) return { status: 'cancelled' };
  if (state.kind === 'import') {
    await vscode.commands.executeCommand('mcpHost.importServers');
    return { status: 'import' };
  }
  const name = state.name!;
  const answers: AddServerAnswers = state.kind === 'npm'
    ? { kind: 'npm', name, package: state.package, args: splitCommandLine(state.argsLine).args ?? [], env: state.env }
    : state.kind === 'command'
      ? { kind: 'command', name, commandLine: splitCommandLine(state.commandLine).args ?? [], env: state.env }
      : { kind: 'http', name, url: state.url, headers: state.headers };
  const built = buildServer(answers, declaredInputs().map(i => (i as { id?: unknown }).id).filter((id): id is string => typeof id === 'string'));
  if (built.errors.length) {
    void showError(vscode.l10n.t('The server was not added: {0}', built.errors.join(' ')));
    return { status: 'cancelled' };
  }
  const target = state.target ?? 'user';
  const settled = await declareAndStart(ctx, target, name, { servers: { [name]: built.declaration }, inputs: built.inputs, secrets: built.secrets });
  return { status: 'added', name, target, state: settled.state, message: settled.message };
}

/** The URL step's check (Add Server, Edit Server). */
export function validateUrl(v: string): string | vscode.InputBoxValidationMessage | undefined {
  if (!v.trim()) return vscode.l10n.t('Enter the server\'s URL.');
  try {
    const u = new URL(v.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return vscode.l10n.t('The URL must start with http:// or https://.');
    if (u.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) {
      return { message: vscode.l10n.t('Plain http:// sends headers and tokens unencrypted; prefer https://.'), severity: vscode.InputBoxValidationSeverity.Warning };
    }
    return undefined;
  } catch {
    return vscode.l10n.t('"{0}" is not a valid URL.', v.trim());
  }
}

/**
 * A nested flow for one variable or header: name → plain or secret → value. `initial` (Edit Server): the
 * entry to change, its name and kind preselected; a secret's stored value is never shown, and leaving it
 * empty keeps it.
 */
export async function askEntry(which: 'env' | 'headers', names: readonly string[], initial?: Entry & { readonly inputId?: string }): Promise<Entry | undefined> {
  const title = initial
    ? (which === 'env' ? vscode.l10n.t('Change environment variable') : vscode.l10n.t('Change header'))
    : (which === 'env' ? vscode.l10n.t('Add environment variable') : vscode.l10n.t('Add header'));
  const entry: { name: string; secret?: boolean; value: string } = initial ? { name: initial.name, secret: initial.secret, value: initial.value } : { name: '', value: '' };
  const keeps = () => !!initial?.inputId && entry.secret;
  interface SecretItem extends vscode.QuickPickItem { readonly secret: boolean }
  const askValue: InputStep = async input => {
    entry.value = await text(input.showInputBox({
      title, step: 3, totalSteps: 3, value: entry.secret ? '' : entry.value, password: entry.secret,
      prompt: keeps()
        ? vscode.l10n.t('New value of {0} (kept in VS Code\'s secret storage; leave empty to keep the stored value)', entry.name)
        : entry.secret
        ? vscode.l10n.t('Value of {0} (kept in VS Code\'s secret storage; leave empty to be asked when the server starts)', entry.name)
        : vscode.l10n.t('Value of {0} (written to settings as plain text)', entry.name),
      placeholder: which === 'headers' && /^authorization$/i.test(entry.name) ? 'Bearer …' : undefined,
      validate: v => {
        if (!entry.secret && looksLikeToken(v)) return vscode.l10n.t('This looks like a token: go back and store it as a secret.');
        return !entry.secret && !v ? vscode.l10n.t('Enter a value.') : undefined;
      },
    }));
  };
  const askSecret: InputStep = async input => {
    const items: SecretItem[] = [
      { secret: true, label: `$(lock) ${vscode.l10n.t('Secret')}`, detail: vscode.l10n.t('Stored in VS Code\'s secret storage; settings only get ${input:…}. For API keys, tokens and passwords.') },
      { secret: false, label: `$(symbol-string) ${vscode.l10n.t('Plain text')}`, detail: vscode.l10n.t('Written to settings as it is. For values that are not confidential.') },
    ];
    const wantSecret = entry.secret ?? isSecretName(entry.name);
    const picked = await input.showQuickPick({
      title, step: 2, totalSteps: 3, items, activeItem: items.find(i => i.secret === wantSecret),
      placeholder: vscode.l10n.t('How should the value of {0} be kept?', entry.name),
    });
    if (!('secret' in picked)) throw InputFlowAction.resume;
    entry.secret = picked.secret;
    return askValue;
  };
  const askName: InputStep = async input => {
    entry.name = (await text(input.showInputBox({
      title, step: 1, totalSteps: 3, value: entry.name,
      prompt: which === 'env' ? vscode.l10n.t('Name of the environment variable, e.g. API_KEY') : vscode.l10n.t('Name of the header, e.g. Authorization'),
      validate: v => {
        const n = v.trim();
        if (!n) return vscode.l10n.t('Enter a name.');
        if (which === 'env' ? !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n) : !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(n)) {
          return which === 'env' ? vscode.l10n.t('Use letters, digits and "_", not starting with a digit.') : vscode.l10n.t('"{0}" is not a valid HTTP header name.', n);
        }
        return names.includes(n) && n !== initial?.name ? { message: vscode.l10n.t('{0} is already set; it will be replaced.', n), severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
      },
    }))).trim();
    return askSecret;
  };
  const done = await MultiStepInput.run(askName);
  return done ? { name: entry.name, value: entry.value, secret: entry.secret ?? false } : undefined;
}

/** The text of an InputBox step; a title-bar button (none are added here) resumes the step. */
async function text(shown: Promise<string | vscode.QuickInputButton>): Promise<string> {
  const r = await shown;
  if (typeof r !== 'string') throw InputFlowAction.resume;
  return r;
}
