import { defineConfig } from 'vitepress'

// The rubricate documentation site. `npm run docs:build` builds it into docs/.vitepress/dist;
// VitePress fails the build on a link to a page that does not exist, and
// scripts/check-docs.mjs checks the anchors and type-checks the Guide's code blocks.
export default defineConfig({
  title: 'rubricate',
  description:
    'LLM-judged rubric assertions for Vitest, with record/replay cassettes that make them deterministic in CI.',
  base: '/rubricate/',
  cleanUrls: true,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started-init' },
      { text: 'Reference', link: '/reference/matchers' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'Errors', link: '/errors/' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'From an empty folder', link: '/guide/getting-started-init' },
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Cassettes', link: '/guide/cassettes' },
          { text: 'Sequences and stateful APIs', link: '/guide/sequences' },
          { text: 'Reviewing cassettes', link: '/guide/reviewing-cassettes' },
          { text: 'Model providers and CI', link: '/guide/providers' },
          { text: 'CI', link: '/guide/ci' },
          { text: 'A fast setup', link: '/guide/fast-setup' },
          { text: 'Judges', link: '/guide/judges' },
          { text: 'Scorers', link: '/guide/scorers' },
          { text: 'Similarity, grounding, budgets', link: '/guide/ready-made-scorers' },
          { text: 'Dataset evals', link: '/guide/dataset-evals' },
          { text: 'Gates, trajectories, conversations', link: '/guide/evals' },
          { text: 'An agent that corrects itself', link: '/guide/loop' },
          { text: 'Calibrate the judge', link: '/guide/calibration' },
          { text: 'Reporter and report page', link: '/guide/reporter' },
          { text: 'History, trends and review', link: '/guide/history' },
          { text: 'Your own msw server', link: '/guide/own-msw-server' },
        ],
      },
      {
        text: 'Recipes',
        items: [{ text: 'Agent frameworks', link: '/guide/frameworks' }],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Matchers', link: '/reference/matchers' },
          { text: 'Configuration', link: '/reference/configuration' },
          { text: 'Cassette format', link: '/reference/cassette-format' },
          { text: 'Testing helpers', link: '/reference/testing' },
          { text: 'Public API', link: '/reference/api' },
          { text: 'CLI', link: '/reference/cli' },
          { text: 'What rubricate prints and writes', link: '/reference/output-safety' },
          { text: 'Error codes', link: '/errors/' },
          { text: 'Tested versions', link: '/reference/versions' },
        ],
      },
      {
        text: 'About',
        items: [
          { text: 'How it compares', link: '/guide/comparison' },
          { text: 'Benchmarks', link: '/guide/benchmarks' },
          { text: 'Reliability', link: '/guide/reliability' },
          { text: "The repository's examples", link: '/guide/examples' },
        ],
      },
    ],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
})
