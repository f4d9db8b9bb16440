/** Sampling logic an embedder builds on: settings, model choice, validation, mapping, redaction, the service. */
export * from './settings';
export * from './modelChoice';
export * from './validate';
export * from './mapping';
export * from './redact';
export * from './rateLimiter';
export * from './samplingLog';
export * from './samplingService';
