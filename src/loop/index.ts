// Run an agent until scorers pass (ARCHITECTURE.md §8.3).

export { runUntilComplete } from './run-until-complete'
export type {
  AgentTurn,
  CompletionCheck,
  CompletionContext,
  LoopAgent,
  LoopIteration,
  LoopMessage,
  LoopScorer,
  LoopScorerResult,
  RunUntilCompleteOptions,
  RunUntilCompleteResult,
  ScorerCheck,
} from './types'
