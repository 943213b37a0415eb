// The texts of reference trajectories: the scorer's and toMatchTrajectory's usage errors, the
// scorer's reason and the matcher's failure heads (ARCHITECTURE.md §11).

import { withoutErrorPage } from '../errors'
import { format, show } from '../messages'

/** @internal */
export const trajectoryMessages = {
  argsByToolNotObject: (where: string, value: unknown): string =>
    format(
      `${where} option "argsByTool" must map tool names to how their arguments are compared, e.g. { lookup_order: 'exact', search: 'ignore' }, but is ${show(value)}.`,
    ),
  referenceUnreadable: (where: string, cause: string): string =>
    format(
      `${where} got a reference trajectory it cannot read. Give a list of calls such as [{ name: 'lookup_order', args: { id: 'A1' } }] (or tool names), or a message list or result that toHaveCalledTool() reads. The reader said: ${withoutErrorPage(cause).replace(/^\[rubricate\] /, '')}`,
    ),
  referenceAndExpected: (): string =>
    format(
      'createToolCallScorer() got both "reference" and "expected", two ways to give the calls the agent should make. Keep one: "expected" for a list of { name, args? } calls, "reference" for a reference trajectory (a message list or result, or such a list).',
    ),
  noExpectedCalls: (): string =>
    format(
      'createToolCallScorer() needs the calls the agent should make: "expected", a list such as [{ name: \'lookup_order\', args: { id: \'A1\' } }], or "reference", a reference trajectory (a message list or result the tool-call matchers read, or such a list).',
    ),
  modeWithOrder: (key: string): string =>
    format(
      `createToolCallScorer() got "mode" and "${key}", which both say how calls are compared. Keep "mode" ('strict', 'unordered', 'subset' or 'superset'), or "order" and "allowExtras" without it.`,
    ),
  argsNotJson: (name: string, raw: string): string =>
    format(
      `A call of the tool "${name}" has arguments that are not JSON (${show(raw)}, the raw text the model sent), so rubricate cannot tell whether they hold the reference call's arguments (reading them as different would score, or let \`.not\` pass, on a call that may have been made). Compare that tool by name alone with argsByTool: { ${JSON.stringify(name)}: 'ignore' }, or with your own function.`,
    ),
  // toMatchTrajectory's failure heads (rendered under the matcher hint)
  trajectoryMismatch: (
    mode: string,
    counts: {
      reference: number
      matched: number
      missing: number
      outOfOrder: number
      extra: number
    },
  ): string => {
    const parts = [
      `${counts.matched} of ${counts.reference} reference call${counts.reference === 1 ? '' : 's'} matched`,
    ]
    if (counts.missing > 0) parts.push(`${counts.missing} missing`)
    if (counts.outOfOrder > 0) parts.push(`${counts.outOfOrder} out of order`)
    if (counts.extra > 0) parts.push(`${counts.extra} extra call${counts.extra === 1 ? '' : 's'}`)
    return `The tool calls do not match the reference trajectory (mode "${mode}"): ${parts.join(', ')}.`
  },
  trajectoryMatchedNegated: (mode: string): string =>
    `Expected the tool calls not to match the reference trajectory (mode "${mode}"), but they do.`,
  trajectoryReferenceLabel: (mode: string, args: string): string =>
    `Reference (${mode}, args: ${args})`,
  trajectoryActualLabel: (calls: number): string =>
    `Actual (${calls} call${calls === 1 ? '' : 's'})`,
  trajectoryNoCalls: (): string => '(no tool calls)',
}
