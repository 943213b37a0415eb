#!/usr/bin/env node
// The `rubricate` command: cassette maintenance (DESIGN 7.9).
import { format } from '../messages'

process.stderr.write(`${format('The cassette commands arrive with the cassette store.')}\n`)
process.exitCode = 1
