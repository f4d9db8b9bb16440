/** Prompts as commands: ids, argument steps, invocation with user-facing errors, Markdown/chat rendering, `/prompt` parsing. */
export { PROMPT_COMMAND_PREFIX, promptCommandId, promptCommandIds, sanitizeIdPart, type PromptRef } from './promptIds';
export { PromptError, argumentTitle, checkArguments, cleanArguments, completionParams, findPrompt, getPrompt, type FoundPrompt, type PromptErrorCode } from './promptInvocation';
export { collectArguments, type ArgumentStep, type StepAnswer } from './argumentSteps';
export { renderPromptMarkdown, renderBlock, type PromptRunInfo } from './promptMarkdown';
export { promptChatRequest, type PromptChatAttachment, type PromptChatRequest } from './promptChat';
export { getPromptFromCommand, parsePromptCommand, type ParsedPromptCommand } from './parsePromptCommand';
export { screenFileLinks, type DroppedFileLink, type FileLinkDropReason, type ScreenedChatRequest } from './fileLinks';
