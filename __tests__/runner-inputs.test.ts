/**
 * Unit tests of reading the inputs from the runner's environment: every input, the tokens masked,
 * the names action.yml does not declare judged first.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { EOL } from 'node:os'
import { INPUT_NAMES } from '../src/config/parse-settings.js'
import { INPUT_PARTS } from '../src/capabilities/index.js'
import { readSettings, readTokens } from '../src/runner/step-inputs.js'
import { runnerVoice } from '../src/runner/voice.js'
import { DEFAULT_INPUTS } from '../tools/defaults.js'
import { TOKEN } from './support/parsed-inputs.js'

/** The tokens, then the settings, as the runner door reads them. */
function readInputs(): ReturnType<typeof readTokens> & {
  settings: ReturnType<typeof readSettings>
} {
  const { tokens, guard } = readTokens()
  return { tokens, guard, settings: readSettings(tokens, runnerVoice(guard), INPUT_PARTS) }
}

describe('readSettings through the runner environment', () => {
  const saved = { ...process.env }
  let writes: string[]

  beforeEach(() => {
    for (const name of INPUT_NAMES) {
      process.env[`INPUT_${name.toUpperCase()}`] = DEFAULT_INPUTS[name]
    }
    writes = []
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      return true
    })
  })

  afterEach(() => {
    jest.restoreAllMocks()
    for (const name of Object.keys(process.env)) {
      if (!(name in saved)) delete process.env[name]
    }
    Object.assign(process.env, saved)
  })

  it('reads every input from INPUT_<NAME> with hyphens kept, trimmed', () => {
    process.env['INPUT_API-TOKEN'] = `  ${TOKEN}\n`
    process.env['INPUT_BASE-URL'] = ' https://api.example-cdn.com '
    process.env['INPUT_SERVICE-ID'] = 'svc123'
    process.env['INPUT_KEYS'] = '\n a b \n'
    process.env['INPUT_BATCH-SIZE'] = ' 100 '
    const env = process.env
    const read = new Set<string>()
    process.env = new Proxy(env, {
      get(target, name, receiver): unknown {
        if (typeof name === 'string' && name.startsWith('INPUT_')) read.add(name)
        return Reflect.get(target, name, receiver)
      }
    })
    let inputs: ReturnType<typeof readInputs>
    try {
      inputs = readInputs()
    } finally {
      process.env = env
    }
    const { settings, tokens } = inputs
    expect([...read].sort()).toEqual(
      INPUT_NAMES.map((name) => `INPUT_${name.toUpperCase()}`).sort()
    )
    // The token goes to the connections, apart: the settings, and the record made of them, hold none.
    expect(tokens.api).toBe(TOKEN)
    expect(JSON.stringify(settings)).not.toContain(TOKEN)
    expect(settings).toMatchObject({
      services: [{ id: 'svc123', baseUrl: 'https://api.example-cdn.com' }],
      keys: ['a', 'b'],
      batchSize: 100
    })
  })

  it('masks the token before refusing a bad input, and the refusal does not contain it', () => {
    process.env['INPUT_API-TOKEN'] = TOKEN
    process.env['INPUT_BASE-URL'] = 'http://api.example-cdn.com'
    process.env['INPUT_SERVICE-ID'] = 'svc123'
    process.env['INPUT_KEYS'] = 'a'
    let message = ''
    try {
      readInputs()
    } catch (error) {
      message = error instanceof Error ? error.message : String(error)
    }
    expect(message).toMatch(/^base-url: /)
    expect(message).not.toContain(TOKEN)
    expect(writes[0]).toBe(`::add-mask::${TOKEN}${EOL}`)
  })

  it('refuses a misspelled input name before judging the others, after warning of unknown ones', () => {
    process.env['INPUT_API-TOKEN'] = TOKEN
    process.env['INPUT_BASE-URL'] = 'https://api.example-cdn.com'
    process.env['INPUT_SERVICE_ID'] = 'svc123'
    process.env['INPUT_KEY'] = 'a'
    // Judged first, service-id would be the one refused: it is empty.
    expect(() => readInputs()).toThrow(/^Misspelled input: .*"service_id"/)
    const warnings = writes.filter((line) => line.startsWith('::warning::'))
    expect(warnings).toEqual([expect.stringContaining('"key"')])
  })
})
