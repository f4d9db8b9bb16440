/**
 * The part of the editor's environment every stdio server inherits: what programs need to run (PATH,
 * HOME, the Windows system folders), never tokens or keys the editor happens to hold. The same names
 * as the MCP SDK's `getDefaultEnvironment` (test/unit/inheritedEnv.test.ts compares them); kept here
 * so that resolving a launch does not load the SDK (the activation side resolves user servers too).
 */
const INHERITED = process.platform === 'win32'
  ? ['APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'PROGRAMDATA',
    'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE', 'WINDIR']
  : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export const INHERITED_ENV_NAMES: readonly string[] = INHERITED;

export function inheritedEnvironment(from: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = from[name];
    // A value starting with "()" is an exported shell function (Shellshock's vector), not a setting.
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return env;
}
