/**
 * The inputs of changed-files and of its last purge (changed-files, url-map, key-map,
 * changed-since, github-token), read by parseSettings: every refusal comes before any request,
 * naming the inputs concerned.
 */
import { describe, expect, it } from '@jest/globals'
import type { RawInputs } from '../../../src/config/parse-settings.js'
import { API, refusalNaming, refusalOf, settingsOf } from '../../support/parsed-inputs.js'

const SITE = 'public/ => https://www.example.com/'
const CHANGED: Partial<RawInputs> = { 'changed-files': 'true', 'github-token': 'gh' }

describe('changed-files', () => {
  it('reads url-map, key-map and changed-since', () => {
    const { changedFiles } = settingsOf({
      ...API,
      ...CHANGED,
      'url-map': SITE,
      'key-map': '** => pages',
      'changed-since': 'main'
    })
    expect(
      changedFiles?.urlMap.map(({ pathPrefix, urlPrefix }) => [pathPrefix, urlPrefix])
    ).toEqual([['public/', 'https://www.example.com/']])
    expect(changedFiles?.keyMap.map(({ key }) => key)).toEqual(['pages'])
    expect(changedFiles?.changedSince).toBe('main')
  })

  it('is off by default, whatever the maps say', () => {
    expect(settingsOf({ ...API, keys: 'a', 'url-map': SITE }).changedFiles).toBeUndefined()
  })

  it('needs a url-map or key-map, naming both', () => {
    refusalNaming({ ...API, ...CHANGED }, ['changed-files', 'url-map', 'key-map'])
  })

  it('takes no github-token: only reading GitHub needs one, and the command reads local git', () => {
    const settings = settingsOf({ ...API, ...CHANGED, 'github-token': '', 'url-map': SITE })
    expect(settings.changedFiles?.urlMap).toHaveLength(1)
  })

  it('refuses mode: all, naming both', () => {
    refusalNaming({ ...API, ...CHANGED, mode: 'all', 'key-map': '** => all-pages' }, [
      'changed-files',
      'mode: all'
    ])
  })

  it('counts a url-map as URLs: mode: keys refuses it, naming it', () => {
    refusalNaming({ ...API, ...CHANGED, mode: 'keys', keys: 'a', 'url-map': SITE }, [
      'mode: keys',
      'url-map'
    ])
  })

  it('needs api-token for the URLs a url-map derives when url-purge-auth is on', () => {
    refusalNaming({ ...CHANGED, 'url-purge-auth': 'true', 'url-map': SITE }, [
      'api-token',
      'url-purge-auth'
    ])
  })

  it('with url-purge-auth, refuses an http:// url-map prefix on a remote host, naming its line', () => {
    const urlMap = `${SITE}\nstatic/ => http://static.example.com/`
    refusalNaming({ ...API, ...CHANGED, 'url-purge-auth': 'true', 'url-map': urlMap }, [
      'url-map line 2',
      'https://'
    ])
  })
})

describe('changed-since: last-purge', () => {
  it('reads purge marks with changed-files and starts them with mode: all', () => {
    const derived = settingsOf({
      ...API,
      ...CHANGED,
      'changed-since': 'last-purge',
      'key-map': '** => pages'
    })
    expect(derived.lastPurge).toEqual({ serviceIds: ['svc123'] })
    expect(derived.changedFiles?.changedSince).toBeUndefined()
    const everything = settingsOf({
      ...API,
      mode: 'all',
      'changed-since': 'last-purge',
      'github-token': 'gh'
    })
    expect(everything.lastPurge).toEqual({ serviceIds: ['svc123'] })
    expect(settingsOf({ ...API, keys: 'a', 'changed-since': 'main' }).lastPurge).toBe(undefined)
  })

  it('is refused where nothing would read or start a purge mark, saying what to give instead', () => {
    const { message } = refusalOf({
      ...API,
      keys: 'a',
      'changed-since': 'last-purge',
      'github-token': 'gh'
    })
    expect(message).toBe(
      'changed-since: last-purge needs changed-files: true (to purge what changed since the last complete purge) or mode: all (to purge everything and start the record); a branch or tag named last-purge cannot be named here, give its commit SHA instead'
    )
  })

  it('needs github-token, saying which permission it needs', () => {
    const { message } = refusalOf({
      ...API,
      mode: 'all',
      'changed-since': 'last-purge',
      'github-token': ''
    })
    expect(message).toBe(
      'github-token is required with changed-since: last-purge, which keeps its record as GitHub deployments (the default, github.token, is enough with permissions: deployments: write)'
    )
  })

  it('needs a service-id to name the purge mark, even for URLs alone', () => {
    const given = { ...CHANGED, 'changed-since': 'last-purge', 'url-map': SITE }
    refusalNaming(given, ['changed-since: last-purge', 'service-id'])
    const urlsOnly = settingsOf({ ...given, 'service-id': 'site' })
    expect(urlsOnly.lastPurge?.serviceIds).toEqual(['site'])
    expect(urlsOnly.services).toEqual([])
  })
})
