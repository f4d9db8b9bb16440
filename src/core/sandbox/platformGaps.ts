/**
 * What the sandbox does not hold on a platform, for the server's log when it starts sandboxed: the
 * same facts SECURITY.md §9 ("macOS") states, so a user reading the log knows what is off without
 * reading the security notes. Linux holds everything §9 lists; Windows never runs a server sandboxed.
 */

/** The protections not in force on `platform`, as one log line; undefined where none is missing. */
export function sandboxGaps(platform: NodeJS.Platform): string | undefined {
  if (platform !== 'darwin') return undefined;
  return 'Sandboxed on macOS, where these protections are NOT in force (SECURITY.md §9): the plant guard is off — '
    + 'a bare repository\'s files (HEAD, objects, refs) or a .git file written into a new folder under ordinary names, '
    + 'and a link to a repository in the server\'s data folder, are not caught; /tmp and /var/tmp are not hidden '
    + '(only its TMPDIR is its own: other programs\' temp files stay readable); a flood of new folders is not bounded.';
}
