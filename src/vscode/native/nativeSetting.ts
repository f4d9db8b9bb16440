/** `mcpHost.chat.nativeServers`: whether VS Code's own chat gets MCP Host's servers as native MCP servers. */
import { readSetting } from '../settingsReader';

export const NATIVE_SETTING = 'chat.nativeServers';

/**
 * Off unless the user turned it on: with a server of thousands of tools, VS Code's own MCP registry grew the
 * workbench past 4 GB in the integration run (the chat history test's 5,000 tools), so the native route is
 * opt-in until its catalogues are bounded (issue 31).
 */
export function nativeServersEnabled(): boolean {
  return readSetting<unknown>(NATIVE_SETTING) === true;
}
