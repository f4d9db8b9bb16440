export { BudgetExceededError, defaultServerLimits, formatBytes, resolveLimits, type ServerLimits } from './limits';
export { ServerBudget } from './serverBudget';
export { BudgetTransport, RATE_LIMITED, type FlowControl } from './budgetTransport';
export { RateQueue, type RateQueueOptions } from './rateQueue';
export { BurstReporter } from './burstReporter';
export { LineSplitter, type OversizedLine } from './lineSplitter';
export { redactThenCut, truncateText } from './truncate';
export { MESSAGE_TOO_LARGE, oversizedReply } from './oversized';
export { limitedFetch } from './limitedFetch';
