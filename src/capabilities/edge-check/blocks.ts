/**
 * The checks a proxy's refusal or a certificate problem makes pointless: no retry gets past either,
 * every other page behind the same wall meets it too, and a company proxy locks an account after a
 * few failed logins. Pure but for the proxy variables, read as the agents read them.
 */
import { hostAndPort, proxyFor, reachOf, type Blocked } from '../../http/blocked.js'

/** A block the check of one URL met. */
export interface PageBlock {
  blocked: Blocked
  /** The URL whose check met it. */
  url: string
  /** The block as that check's evidence tells it. */
  sentence: string
}

/**
 * Whether a check of `url` would meet `block`: after a 407 every URL behind the same proxy would;
 * after a 403 (or another refusal) or a certificate problem, every URL on the same host and port.
 */
export function meets(block: PageBlock, url: string): boolean {
  if (!URL.canParse(url)) return false
  const target = new URL(url)
  if (hostAndPort(target) === hostAndPort(new URL(block.url))) return true
  const { blocked } = block
  return (
    reachOf(blocked) === 'proxy' && blocked.kind === 'proxy' && proxyFor(target) === blocked.proxy
  )
}

/** Why a URL `block` meets gets no check (or no further one): what the earlier check found. */
export function sparedBy(block: PageBlock): string {
  const where =
    reachOf(block.blocked) === 'proxy' ? 'through the same proxy' : 'of the same host and port'
  return `an earlier check ${where} found that ${block.sentence}`
}
