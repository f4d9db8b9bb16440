export * from './inspector';
export * from './watchPattern';
