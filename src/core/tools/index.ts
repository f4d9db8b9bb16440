export * from './toolNames';
export * from './toolApproval';
export * from './toolSelection';
export * from './toolResults';
