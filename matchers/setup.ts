// rubricate/setup: the Vitest setup file. Registers the matchers and drives cassettes per test file.
import './augment'
