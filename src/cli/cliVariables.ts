/** The CLI's one workspace folder, trusted: the user chose to run its servers (after consent for a workspace's own files). */
import * as os from 'node:os';
import * as path from 'node:path';
import type { VariableContext } from '../core/light';

export function cliVariables(workspace: string): VariableContext {
  return { workspaceFolders: [{ name: path.basename(workspace), path: workspace }], trusted: true, userHome: os.homedir(), env: process.env };
}
