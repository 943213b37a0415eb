import { expect, test } from 'vitest'
import { createScorer, filterRun } from '../../src'

const text = (id: string) => ({
  id,
  role: 'assistant',
  content: { format: 2, parts: [{ type: 'text', text: id }] },
})
const tool = (id: string, toolName: string) => ({
  id,
  role: 'assistant',
  content: { format: 2, parts: [{ type: 'tool-invocation', toolInvocation: { toolName } }] },
})
const plain = (id: string) => ({ id, role: 'user', content: id })

async function seenBy(prepareRun: ReturnType<typeof filterRun>, run: object): Promise<any> {
  let seen: unknown
  await createScorer({ id: 'f', description: 'f', type: 'agent', prepareRun })
    .generateScore(({ run }) => {
      seen = run
      return 1
    })
    .run(run as never)
  return seen
}

test("filterRun takes Mastra's documented options: toolNames by prefix and maxRememberedMessages", async () => {
  const run = {
    input: {
      inputMessages: [plain('q')],
      rememberedMessages: [
        plain('r1'),
        tool('r2', 'execute_command'),
        tool('r3', 'search_web'),
        text('r4'),
        tool('r5', 'write_file_v2'),
      ],
      systemMessages: [],
      taggedSystemMessages: {},
    },
    output: [tool('o1', 'search_web'), tool('o2', 'string_replace_lsp'), text('o3')],
    expectedTrajectory: { steps: [] },
  }
  const seen = await seenBy(
    filterRun({
      toolNames: ['execute_command', 'write_file', 'string_replace_lsp'],
      maxRememberedMessages: 3,
      dropExpectedTrajectory: true,
    }),
    run,
  )
  expect(seen.input.rememberedMessages.map((m: { id: string }) => m.id)).toEqual(['r2', 'r4', 'r5'])
  expect(seen.input.inputMessages).toEqual([plain('q')])
  expect(seen.output.map((m: { id: string }) => m.id)).toEqual(['o2', 'o3'])
  expect(seen).not.toHaveProperty('expectedTrajectory')
})

test('filterRun partTypes keeps messages with a matching part, and plain-text messages', async () => {
  const parts = (id: string, type: string) => ({ id, role: 'assistant', content: [{ type }] })
  const seen = await seenBy(filterRun({ partTypes: ['text', 'data-'] }), {
    input: {
      inputMessages: [],
      rememberedMessages: [parts('a', 'data-om-x'), parts('b', 'step-start'), plain('c')],
      systemMessages: [],
      taggedSystemMessages: {},
    },
    output: [parts('d', 'text'), tool('e', 'x'), parts('f', 'reasoning')],
  })
  expect(seen.input.rememberedMessages.map((m: { id: string }) => m.id)).toEqual(['a', 'c'])
  expect(seen.output.map((m: { id: string }) => m.id)).toEqual(['d'])
})

test('filterRun rejects a misspelt option naming the nearest one, and part filters that are not strings', () => {
  expect(() => filterRun({ maxRememberedMessage: 2 } as never)).toThrow(
    /filterRun\(\).*"maxRememberedMessage".*"maxRememberedMessages"/s,
  )
  expect(() => filterRun({ toolNames: 'execute_command' } as never)).toThrow(
    '[rubricate] filterRun() got "execute_command" as toolNames, which is not a list of strings. Give prefixes such as ["text", "tool-invocation"].',
  )
})
