// Agent output and input shapes to the text a judge sees (ARCHITECTURE.md §8.2).

export { mastraAgentRun } from './mastra-run'
export { contentText } from './message-text'
export { isThenable, outputText, textPreview } from './output-text'
export { RECORDED_TEXT_LIMIT, recordedTexts } from './recorded-text'
export { stableJson } from './stable-json'
export { taskText } from './task-text'
export { type ToolCall, toolCalls } from './tool-calls'
