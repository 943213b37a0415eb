// rubricate/testing: helpers for testing judges and agents without a network.

// Fake OpenAI-compatible server
export { startFakeOpenAI } from './fake-openai'
export { fakeReply } from './fake-reply'
export type { FakeOpenAI, FakeOpenAIOptions, FakeReplyFunction, FakeRequest } from './fake-openai'
export type {
  FakeEmbeddingOptions,
  FakeErrorOptions,
  FakeReply,
  FakeReplyInput,
  FakeTextOptions,
  FakeUsage,
} from './fake-reply'

// Fake Anthropic Messages and Gemini servers
export { startFakeAnthropic } from './fake-anthropic'
export type { FakeAnthropicOptions } from './fake-anthropic'
export { startFakeGemini } from './fake-gemini'
export type { FakeGeminiOptions } from './fake-gemini'
export type {
  FakeProviderReply,
  FakeProviderReplyInput,
  FakeProviderServer,
} from './fake-provider-server'

// Rules-based rubric judge, for startFakeOpenAI
export { fakeRubricJudge } from './fake-rubric-judge'
export type {
  FakeRubricCase,
  FakeRubricDecision,
  FakeRubricJudgeOptions,
  FakeRubricRule,
} from './fake-rubric-judge'

// Scripted judge
export { scriptedJudge } from './scripted-judge'
export type {
  ScriptedJudge,
  ScriptedJudgeOptions,
  ScriptedReply,
  ScriptedReplyFunction,
} from './scripted-judge'
