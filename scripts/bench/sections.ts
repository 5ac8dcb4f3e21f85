/**
 * BENCHMARKS.md holds one section per mode of the bench, each between markers of its own: a mode
 * rewrites its section and keeps the other's as the last run of that mode left it.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT } from '../../tools/run-like-runner.js'

export type Mode = 'network' | 'loopback'

const FILE = join(ROOT, 'BENCHMARKS.md')
const ORDER: Mode[] = ['network', 'loopback']

const INTRO = [
  '# Benchmarks',
  '',
  '`npm run bench` runs the action over a modelled real network: HTTPS purge APIs a round trip of ' +
    '20 and 60 ms away. Those are the headline figures. `npm run bench -- --loopback` runs the ' +
    'loopback suite (plain HTTP on 127.0.0.1, a latency added by the server): the regression guard ' +
    'for the start, the CPU per call and the memory. Each mode rewrites its own section below.',
  ''
].join('\n')

const begin = (mode: Mode): string => `<!-- bench:${mode} -->`
const end = (mode: Mode): string => `<!-- /bench:${mode} -->`

function sectionOf(text: string, mode: Mode): string | undefined {
  const from = text.indexOf(begin(mode))
  const to = text.indexOf(end(mode))
  return from === -1 || to === -1 ? undefined : text.slice(from + begin(mode).length, to).trim()
}

export async function writeSection(mode: Mode, section: string): Promise<void> {
  const old = await readFile(FILE, 'utf8').catch(() => '')
  const sections = ORDER.flatMap((each) => {
    const body = each === mode ? section.trim() : sectionOf(old, each)
    return body === undefined ? [] : [begin(each), '', body, '', end(each), '']
  })
  await writeFile(FILE, [INTRO, ...sections].join('\n'))
  console.log(`\nwrote the ${mode} section of BENCHMARKS.md`)
}
