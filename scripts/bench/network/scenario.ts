/** A scenario of the network mode: the inputs of one run against the hosts, and its target. */
import type { NetworkHosts } from './hosts.js'

export interface NetworkScenario {
  name: string
  /** Its ratio to the bound at RTT 60 ms must come to at most this (issue 29's acceptance). */
  targetAt60?: number
  inputs(hosts: NetworkHosts): Record<string, string>
  /** Files written into the run's directory first (a keys-file). */
  files?: Record<string, string>
}
