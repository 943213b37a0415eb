// The fake OpenAI-compatible server that judged fixture projects talk to: the support agent's
// model (`gpt-agent`) echoes the question, the judge (`gpt-judge`) grades by keyword and answers
// 401 to an output holding "JUDGE_401", and late to one holding "slowly".
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from './keyword-judge'

export function startFixtureOpenAI(): Promise<FakeOpenAI> {
  return startFakeOpenAI({
    reply: (request) => {
      if (request.body?.model === 'gpt-agent') {
        return `Echo: ${request.body.messages.at(-1).content}`
      }
      if (JSON.stringify(request.body).includes('JUDGE_401')) {
        return fakeReply.status(401, { message: 'Incorrect API key provided.' })
      }
      // "slowly" in the output: the verdict comes late, so concurrent tests finish out of order.
      const verdict = keywordJudge(request)
      return JSON.stringify(request.body).includes('slowly')
        ? fakeReply.delay(300, verdict)
        : verdict
    },
  })
}
