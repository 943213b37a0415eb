import type { AgentTurn } from 'rubricate'
import { AGENT_MODEL, openai } from '../openai-client'

/** The researcher's instructions. Its rules in the reference model recognise it by them. */
export const RESEARCHER_SYSTEM_PROMPT = `You are a research assistant. Gather the facts a report on the question needs,
as a short list of notes, each with its source.`

/** The writer's instructions. Its rules in the reference model recognise it by them. */
export const WRITER_SYSTEM_PROMPT = `You are a technical writer. Write the report the question asks for, in Markdown,
from the research notes you are given.`

/**
 * A supervisor that coordinates two agents: a researcher gathers notes once, then a writer
 * drafts the report. When a reviewer (the rubric, through `runUntilComplete`) sends feedback,
 * the writer revises its last draft with it; the notes are not gathered again.
 */
export function createResearchSupervisor(): (turn: AgentTurn<string, string>) => Promise<string> {
  let notes: string | undefined
  return async ({ input, feedback, history, signal }) => {
    notes ??= await ask(RESEARCHER_SYSTEM_PROMPT, `Question: ${input}`, signal)
    const lastDraft = history.at(-1)?.output
    const brief = [`Question: ${input}`, '', 'Research notes:', notes]
    if (feedback && lastDraft) {
      brief.push('', 'Your last draft:', lastDraft, '', 'Reviewer feedback to address:', feedback)
    }
    return ask(WRITER_SYSTEM_PROMPT, brief.join('\n'), signal)
  }
}

async function ask(system: string, user: string, signal: AbortSignal | undefined): Promise<string> {
  const completion = await openai.chat.completions.create(
    {
      model: AGENT_MODEL,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    },
    { signal },
  )
  return completion.choices[0]?.message.content ?? ''
}
