/**
 * `.env.example`, which `npm run local-action` runs with and CONTRIBUTING.md says sets every input,
 * held to the inputs action.yml declares, both ways, so that a new input cannot be left out of it.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { declaredInputs, ROOT } from '../tools/run-like-runner.js'

const TEXT = readFileSync(join(ROOT, '.env.example'), 'utf8')

/** The variable @actions/core and local-action's stand-in read an input from: INPUT_API-TOKEN. */
const variableOf = (input: string): string => `INPUT_${input.replace(/ /g, '_').toUpperCase()}`

/** The lines that are neither blank nor a `#` comment. */
const settingLines = TEXT.split('\n').filter((line) => line.trim() !== '' && !/^\s*#/.test(line))
/** `NAME=value`: no spaces around `=`, no `export`, as the file writes every variable. */
const SETTING = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/
const settings = settingLines.map((line) => SETTING.exec(line))
const inputSettings = settings.flatMap((match) =>
  match?.[1]?.startsWith('INPUT_') ? [{ name: match[1], value: match[2] ?? '' }] : []
)

describe('.env.example', () => {
  it('writes every variable as NAME=value, so none is missed below', () => {
    expect(settingLines.filter((_, index) => settings[index] === null)).toEqual([])
    expect(inputSettings.length).toBeGreaterThan(0)
  })

  it('sets every input action.yml declares, and only those', async () => {
    const declared = Object.keys(await declaredInputs()).map(variableOf)
    const set = inputSettings.map(({ name }) => name)
    expect({
      missing: declared.filter((name) => !set.includes(name)),
      undeclared: set.filter((name) => !declared.includes(name))
    }).toEqual({ missing: [], undeclared: [] })
  })

  it('sets each input once, without spaces around its value (local-action does not trim)', () => {
    const names = inputSettings.map(({ name }) => name)
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([])
    expect(inputSettings.filter(({ value }) => value !== value.trim())).toEqual([])
  })
})
