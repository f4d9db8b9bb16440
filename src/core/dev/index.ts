export * from './debugpy';
export * from './inspector';
export * from './watchPattern';
