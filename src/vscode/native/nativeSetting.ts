/** `mcpHost.chat.nativeServers`: whether VS Code's own chat gets MCP Host's servers as native MCP servers. */
import { readSetting } from '../settingsReader';

export const NATIVE_SETTING = 'chat.nativeServers';

/** On unless the user (or a workspace, which may only narrow) turned it off. */
export function nativeServersEnabled(): boolean {
  return readSetting<unknown>(NATIVE_SETTING) !== false;
}
