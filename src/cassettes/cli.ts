#!/usr/bin/env node
// The `rubricate` command: cassette maintenance (DESIGN 7.9).
import { format } from '../messages'
import { pruneCommand } from './prune-command'

const [group, command, ...rest] = process.argv.slice(2)
const io = {
  cwd: process.cwd(),
  out: (text: string) => process.stdout.write(`${text}\n`),
  err: (text: string) => process.stderr.write(`${text}\n`),
}

if (group === 'cassettes' && command === 'prune') {
  process.exitCode = await pruneCommand(rest, io)
} else {
  process.stderr.write(`${format('The cassette commands arrive with the cassette store.')}\n`)
  process.exitCode = 1
}
