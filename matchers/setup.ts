// rubricate/setup: the Vitest setup file. Vitest evaluates it again before each test file that
// shares a worker (the plugin has it inlined), so it holds nothing but this call. What it calls is
// imported, not bundled in: Node loads it once per worker, and Vitest's module runner has one
// import to resolve per file instead of the whole graph's.
import './augment'

const { setUpFile } = await import('./setup-file')
setUpFile()
