/**
 * Runtime arguments of a registry package go to the runner (`npx`, `uvx`, `docker run`, `dnx`) before
 * the package. There they can pick another package: a positional is read as the package (or image), a
 * value after a flag the runner takes as boolean becomes one, and some options name the source outright
 * (`--call`, `--registry`, `uvx --from`, `docker --entrypoint`). So only `--long` options are allowed,
 * each written as one `--name=value` argument, none of the options below, and none at all for `npx`,
 * whose option parser also accepts abbreviations (`--reg` is `--registry`).
 */

// Options that choose what runs or where it comes from, or take the container out of its isolation.
const REFUSED: Readonly<Record<string, readonly string[]>> = {
  pypi: ['from', 'with', 'with-editable', 'with-requirements', 'index', 'index-url', 'extra-index-url', 'default-index', 'find-links',
    'constraints', 'overrides', 'build-constraints', 'config-file', 'directory', 'project'],
  oci: ['entrypoint', 'privileged', 'pid', 'ipc', 'uts', 'userns', 'cgroupns', 'cap-add', 'device', 'security-opt', 'env-file',
    'volumes-from', 'network', 'net', 'platform', 'runtime'],
  nuget: ['source', 'add-source', 'configfile'],
};

/** Why `name` may not go before the package for `registryType`, or undefined when it may. */
export function refusedRuntimeOption(registryType: string, name: string | undefined): string | undefined {
  if (registryType === 'npm') return 'npx takes no runtime options from a registry entry (its parser reads abbreviations such as --reg for --registry)';
  if (!name || !/^--[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) return 'only --long options may go before the package (a positional or short option there could name another package)';
  if (REFUSED[registryType]?.includes(name.slice(2).toLowerCase())) return `${name} would change what runs or where it comes from`;
  return undefined;
}
