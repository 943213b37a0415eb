// LangGraph's own values, read as they are (no import of LangGraph): a state paused at
// `interrupt()` (`invoke()` returns it with `__interrupt__`), and a `getState()` snapshot whose
// tasks hold the interrupts. A paused run has no final reply, so the judge is refused one; its
// interrupts are what `toHaveBeenInterrupted()` reads.
import { UsageError } from '../errors'
import { outputMessages } from './output-messages'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/** One pause of a LangGraph run: the value given to `interrupt()`, and its id. @internal */
export interface LangGraphInterrupt {
  value: unknown
  id?: string | undefined
}

/**
 * The interrupts a LangGraph value holds: a state's `__interrupt__`, or the interrupts of a
 * `StateSnapshot`'s tasks. `undefined` for a value that is neither; an empty list for one that is
 * not paused.
 * @internal
 */
export function langGraphInterrupts(value: unknown): LangGraphInterrupt[] | undefined {
  if (!isObject(value)) return undefined
  if (Array.isArray(read(value, '__interrupt__'))) {
    return (read(value, '__interrupt__') as unknown[]).map(interrupt)
  }
  if (isStateSnapshot(value)) {
    const tasks = read(value, 'tasks') as unknown[]
    return tasks.flatMap((task) =>
      isObject(task) && Array.isArray(task.interrupts) ? task.interrupts.map(interrupt) : [],
    )
  }
  return undefined
}

/** True for a LangGraph `StateSnapshot` (`graph.getState(config)`). @internal */
export function isStateSnapshot(value: unknown): value is Loose {
  return (
    isObject(value) &&
    'values' in value &&
    Array.isArray(read(value, 'next')) &&
    Array.isArray(read(value, 'tasks')) &&
    'config' in value
  )
}

/**
 * Throws `RUBRICATE_USAGE` for a LangGraph state or snapshot paused at `interrupt()`: the judge
 * would be shown a reply the run has not given yet.
 * @internal
 */
export function assertNotInterrupted(value: unknown): void {
  const interrupts = langGraphInterrupts(value)
  if (interrupts !== undefined && interrupts.length > 0) {
    throw new UsageError(outputMessages.langGraphInterrupted(interrupts.length))
  }
}

function interrupt(entry: unknown): LangGraphInterrupt {
  if (!isObject(entry)) return { value: entry }
  return typeof entry.id === 'string'
    ? { value: entry.value, id: entry.id }
    : { value: entry.value }
}

function read(object: Loose, key: string): unknown {
  try {
    return object[key]
  } catch {
    return undefined
  }
}
