#!/usr/bin/env node
// The `rubricate` command (ARCHITECTURE.md §7.9).
import { rubricateCommand } from './rubricate-command'

process.exitCode = await rubricateCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
})
