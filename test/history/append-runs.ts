// A child process for the concurrency test: adds `count` runs to one history, as fast as it can.
// Bundled by the test with esbuild and run by plain node, so two of them write at the same time.
import { openHistory } from '../../src/history/history-store'
import { supportRun } from './history-runs'

const [path, root, name, count] = process.argv.slice(2) as [string, string, string, string]
const store = openHistory(path, root)
for (let i = 0; i < Number(count); i++) store.append(supportRun((i % 10) + 1, 6, `${name}-${i}`))
store.close()
process.stdout.write(`${store.driver}\n`)
