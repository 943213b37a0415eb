// rubricate/testing: helpers for testing judges and agents without a network.

// Fake OpenAI-compatible server
export { startFakeOpenAI } from './fake-openai'
export { fakeReply } from './fake-reply'
export type { FakeOpenAI, FakeOpenAIOptions, FakeReplyFunction, FakeRequest } from './fake-openai'
export type { FakeReply, FakeReplyInput } from './fake-reply'

// Fake Anthropic Messages and Gemini servers
export { startFakeAnthropic } from './fake-anthropic'
export { startFakeGemini } from './fake-gemini'
export type { FakeProviderServer } from './fake-provider-server'

// Rules-based rubric judge, for startFakeOpenAI
export { fakeRubricJudge } from './fake-rubric-judge'

// Scripted judge
export { scriptedJudge } from './scripted-judge'
export type { ScriptedJudge } from './scripted-judge'
