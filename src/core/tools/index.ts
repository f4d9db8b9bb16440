export * from './toolNames';
export * from './toolApproval';
export * from './toolResults';
export * from './searchTokens';
export * from './toolSearch';
export * from './toolOffer';
export * from './toolScope';
export * from './resultBudget';
