/** Onboarding: adding a server, importing other hosts' configurations, localization checks. No VS Code here. */
export * from './addServer';
export * from './importConfig';
export * from './importReview';
export * from './inputs';
export * from './jsonc';
export * from './secrets';
export * from './sources';
export * from './l10nKeys';
export * from './editServer';
