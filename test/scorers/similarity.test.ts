import { afterEach, expect, test } from 'vitest'
import { createEditDistanceScorer, createSimilarityScorer } from '../../src'
import { withRunChoices } from '../../src/runtime/run-choices'
import { cosineSimilarity } from '../../src/similarity/cosine'
import { editDistance, editSimilarity } from '../../src/similarity/edit-distance'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { entriesUnder, useCassetteFolder } from '../cassettes/support'

const folder = useCassetteFolder()
let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

test('cosine similarity of known vectors: parallel 1, orthogonal 0, opposite -1, 45 degrees 1/sqrt 2', () => {
  expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12)
  expect(cosineSimilarity([1, 0], [0, 1])).toBe(0)
  expect(cosineSimilarity([1, 0], [-3, 0])).toBe(-1)
  expect(cosineSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12)
  expect(cosineSimilarity(new Float32Array([0.6, 0.8]), [0.8, 0.6])).toBeCloseTo(0.96, 6)
})

test('cosine similarity has no value for vectors of different lengths, empty ones or a zero vector', () => {
  expect(cosineSimilarity([1, 2], [1, 2, 3])).toBeUndefined()
  expect(cosineSimilarity([], [])).toBeUndefined()
  expect(cosineSimilarity([0, 0], [1, 2])).toBeUndefined()
})

test('edit distance counts insertions, deletions and substitutions by code point', () => {
  expect(editDistance('kitten', 'sitting')).toBe(3)
  expect(editDistance('flaw', 'lawn')).toBe(2)
  expect(editDistance('', 'abc')).toBe(3)
  expect(editDistance('a😀b', 'a😃b')).toBe(1)
  expect(editSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 12)
  expect(editSimilarity('', '')).toBe(1)
})

test('the edit-distance scorer scores 1 minus the normalised distance and passes at its threshold', async () => {
  const scorer = createEditDistanceScorer({ expected: 'Order A1 ships Monday', threshold: 0.9 })
  const close = await scorer.run({ output: 'Order A1 ships monday' })
  expect(close.score).toBeCloseTo(1 - 1 / 21, 12)
  expect(close.passed).toBe(true)
  const far = await scorer.run({ output: 'We have no idea' })
  expect(far.passed).toBe(false)
  expect(far.reason).toMatch(/^The edit similarity is 0\.\d{3}\.$/)
})

test('the edit-distance scorer without expected text reads the run groundTruth, and refuses a run with neither', async () => {
  const scorer = createEditDistanceScorer({ ignoreCase: true })
  expect((await scorer.run({ output: 'YES', groundTruth: 'yes' })).score).toBe(1)
  await expect(scorer.run({ output: 'yes' })).rejects.toThrow(/no text to compare the output with/)
})

test('the similarity scorer embeds output and expected text through the endpoint and records the call', async () => {
  server = await startFakeOpenAI({ reply: fakeReply.embedding() })
  const scorer = createSimilarityScorer({
    embedder: { model: 'text-embedding-3-small', baseURL: server.baseURL, apiKey: 'k' },
    threshold: 0.5,
  })
  const result = await scorer.run({
    output: 'your refund is on its way',
    groundTruth: 'the refund is on its way',
  })
  expect(result.score).toBeGreaterThan(0.5)
  expect(result.score).toBeLessThan(1)
  expect(result.passed).toBe(true)
  expect(server.requests).toHaveLength(1)
  expect(server.requests[0]?.path).toBe('/v1/embeddings')
  expect(result.judgeCalls).toMatchObject([
    { model: 'text-embedding-3-small', source: 'recorded', step: 'analyze' },
  ])
  const entries = await entriesUnder(folder.dir)
  expect(entries.map((entry) => entry.request.endpoint)).toEqual(['embeddings'])
})

test('a custom embedder is recorded once and replayed without being called', async () => {
  let calls = 0
  const embedder = {
    id: 'letters',
    embed: (texts: string[]) => {
      calls++
      return texts.map((text) => [text.length, text.split('a').length])
    },
  }
  const scorer = createSimilarityScorer({ embedder, expected: 'banana' })
  const first = await scorer.run({ output: 'banana' })
  expect(first.score).toBeCloseTo(1, 12)
  expect(first.judgeCalls[0]?.source).toBe('recorded')
  const { configureRubricate } = await import('../../src')
  configureRubricate({ cassettes: { mode: 'replay', dir: folder.dir } })
  const again = await scorer.run({ output: 'banana' })
  expect(again.score).toBe(first.score)
  expect(again.judgeCalls[0]?.source).toBe('replayed')
  expect(calls).toBe(1)
})

test('an embedder that is none of the four forms is refused when the scorer is made', () => {
  expect(() => createSimilarityScorer({ embedder: 42 as never })).toThrow(
    /is not an embedding model rubricate can use/,
  )
  expect(() => createEditDistanceScorer({ threshold: 2 })).toThrow(/must be a number from 0 to 1/)
})

test("an AI SDK embedder hears the test's signal its scorer run was handed (a matcher's): a timed-out test ends the embedding", async () => {
  const { configureRubricate } = await import('../../src')
  configureRubricate({ cassettes: { mode: 'off' } })
  let heard: AbortSignal | undefined
  const embedder = {
    specificationVersion: 'v2',
    provider: 'test',
    modelId: 'signal-embedder',
    maxEmbeddingsPerCall: 8,
    supportsParallelCalls: true,
    doEmbed: async ({ values, abortSignal }: { values: string[]; abortSignal?: AbortSignal }) => {
      heard = abortSignal
      return { embeddings: values.map(() => [1, 0]) }
    },
  }
  const testSignal = new AbortController()
  const scorer = createSimilarityScorer({ embedder: embedder as never, expected: 'banana' })
  const result = await scorer.run(
    withRunChoices({ output: 'banana' }, { signal: testSignal.signal }),
  )
  expect(result.score).toBeCloseTo(1, 12)
  expect(heard?.aborted).toBe(false)
  testSignal.abort(new Error('the test timed out'))
  expect(heard?.aborted).toBe(true)
})
