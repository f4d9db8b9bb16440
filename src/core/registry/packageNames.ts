/**
 * What a registry entry may name as its package: a name in that package registry, nothing else. The
 * runners (`npx`, `uvx`, `docker`, `dnx`) also accept tarball URLs, `github:`/`git+…` specs, `file:`
 * and paths, and aliases (`npm:other`, `pkg@file:..`): each would run code that is not the registry's
 * package. The rules are the registries' own documented name rules, written strictly (no leading
 * `-`, which a runner would read as an option).
 */

/** npm (rules of `validate-npm-package-name` for new packages): lower case, URL-safe, ≤ 214, optional `@scope/`. */
export function isNpmPackageName(id: string): boolean {
  if (id.length > 214 || id === 'node_modules' || id === 'favicon.ico') return false;
  return /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/.test(id);
}

/** PyPI (PEP 508 names; extras allowed): starts and ends with a letter or digit. */
export function isPypiPackageName(id: string): boolean {
  return id.length <= 200 && /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:\[[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:,[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)*\])?$/.test(id);
}

/** NuGet package ids: letters, digits, `.`, `_`, `-`, at most 100. */
export function isNugetPackageId(id: string): boolean {
  return id.length <= 100 && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id);
}

// The OCI distribution reference grammar (github.com/distribution/reference): [domain[:port]/]path[:tag][@digest].
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const DOMAIN = `${LABEL}(?:\\.${LABEL})*(?::[0-9]+)?`;
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const OCI_REFERENCE = new RegExp(`^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`);

/** An OCI image reference (`ghcr.io/owner/image:1.0`, `image@sha256:…`), at most 255 characters. */
export function isOciReference(id: string): boolean {
  return id.length <= 255 && OCI_REFERENCE.test(id);
}

/** Whether `id` is a package name of `registryType`; false for types with no rule here. */
export function isRegistryPackageName(registryType: string, id: string): boolean {
  switch (registryType) {
    case 'npm': return isNpmPackageName(id);
    case 'pypi': return isPypiPackageName(id);
    case 'nuget': return isNugetPackageId(id);
    case 'oci': return isOciReference(id);
    default: return false;
  }
}
