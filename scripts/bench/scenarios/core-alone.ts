/**
 * `@actions/core` alone, bundled with ncc as dist/ is and timed in turn with the empty action: what
 * an action that reads one input costs to start with this stack.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { ROOT } from '../../../tools/run-like-runner.js'
import type { Bench } from '../context.js'
import type { Figures } from '../figures.js'
import { format } from '../numbers.js'
import { moduleEntry } from '../scratch.js'
import { pairedStarts } from '../timing.js'

type Ncc = (entry: string, options: { quiet: boolean }) => Promise<{ code: string }>

/** The entry sits under node_modules so ncc resolves the project's packages. */
async function coreOnlyBundle(): Promise<{ entry: string; bytes: number }> {
  const ncc = createRequire(import.meta.url)('@vercel/ncc') as Ncc
  const dir = join(ROOT, 'node_modules', '.cache', 'edge-purge-bench')
  await mkdir(dir, { recursive: true })
  const source = join(dir, 'core-only.mjs')
  await writeFile(source, "import * as core from '@actions/core'\ncore.getInput('keys')\n")
  try {
    const { code } = await ncc(source, { quiet: true })
    return { entry: await moduleEntry(code), bytes: Buffer.byteLength(code) }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export async function coreAlone(bench: Bench): Promise<Figures['core']> {
  const bundle = await coreOnlyBundle()
  const pair = await pairedStarts(
    { inputs: {}, entry: bundle.entry },
    { inputs: {}, entry: bench.emptyEntry }
  )
  const core = { startMs: pair.aMs, bytes: bundle.bytes, ratio: pair.ratio }
  console.log(
    `@actions/core alone: ${format(core.startMs)} (${core.ratio.toFixed(2)}× the empty action)`
  )
  return core
}
