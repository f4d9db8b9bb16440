export * from './appTools';
export * from './csp';
export * from './appResource';
export * from './hostStyles';
export * from './appContext';
