/** `mcpHost.chat.nativeServers`: whether VS Code's own chat gets MCP Host's servers as native MCP servers. */
import { readSetting } from '../settingsReader';

export const NATIVE_SETTING = 'chat.nativeServers';

/**
 * On by default (package.json): what VS Code is listed of each server is bounded by the gateway
 * (core/gateway/listBounds.ts), so a server of thousands of tools no longer grows the workbench.
 * Anything but `true` (a workspace's `false`, a value of the wrong type) is off.
 */
export function nativeServersEnabled(): boolean {
  return readSetting<unknown>(NATIVE_SETTING) === true;
}
