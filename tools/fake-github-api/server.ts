/**
 * The parts of GitHub's REST API that changed-files and last-purge use, on 127.0.0.1, behaving as
 * GitHub documents them: a repository of real commits (trees, parents), the compare endpoint with
 * its 300-file limit (files only on the first page, commits paged with `Link` headers, ahead /
 * behind / diverged / identical), whole trees (`recursive=1`, `truncated`), releases, renames and removals, deployments and their statuses
 * (newest first, paged, 201 on create, `auto_inactive`), 404 for an unknown commit, and token
 * checks per permission. Records every request. Fault rules make it misbehave as GitHub can: a
 * 5xx, the secondary and primary rate limits, an answer that trickles or never comes, and paging
 * that never ends.
 */
import { LoopbackServer, type TlsIdentity } from '../loopback-server.js'
import { createHash } from 'node:crypto'
import {
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse
} from 'node:http'

/** What a job token was granted, per scope. */
export interface Grant {
  contents: 'read' | 'none'
  deployments: 'write' | 'read' | 'none'
}

/**
 * What a token may do: `read` has `contents: read` and `deployments: write` (what the docs ask a
 * workflow to grant); `none` is a valid token without either.
 */
export type Permission = 'read' | 'none' | Grant

const GRANTS: Record<'read' | 'none', Grant> = {
  read: { contents: 'read', deployments: 'write' },
  none: { contents: 'none', deployments: 'none' }
}

export interface RecordedGitHubRequest {
  method: string
  /** Path without the query, percent-encoding kept. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** The JSON body of a POST. */
  body: Record<string, unknown> | undefined
}

/** A deployment status as GitHub keeps it. */
export interface FakeDeploymentStatus {
  id: number
  state: string
  description: string
  log_url: string
}

/** A deployment as GitHub keeps it; statuses newest last. */
export interface FakeDeployment {
  id: number
  sha: string
  ref: string
  task: string
  environment: string
  description: string
  payload: unknown
  transient_environment: boolean
  production_environment: boolean
  created_at: string
  statuses: FakeDeploymentStatus[]
}

const DEPLOYMENT_STATES = [
  'error',
  'failure',
  'inactive',
  'in_progress',
  'queued',
  'pending',
  'success'
]
/** GitHub refuses longer deployment and status descriptions. */
const MAX_DESCRIPTION = 140

/** One change a commit makes to its parent's tree. */
export type Change =
  /** Adds the file, or modifies it when it exists (new content each time). */
  { write: string } | { remove: string } | { rename: string; to: string }

export interface FakeRelease {
  tag: string
  sha: string
  publishedAt: string
  draft?: boolean
  prerelease?: boolean
}

export interface FakeGitHubOptions {
  owner?: string
  repo?: string
  /** Token → permission. Default: `gh-test-token` with `read`. */
  tokens?: Record<string, Permission>
  /** Where the REST API's paths start: GitHub Enterprise Server's is `/api/v3`. Default: the root. */
  basePath?: string
  /** Serve HTTPS with this key and certificate, as GitHub does; plain HTTP without. */
  tls?: TlsIdentity
}

/** How one faulty answer misbehaves. */
export type GitHubFault =
  /**
   * Any answer, e.g. `{ kind: 'reply', status: 502 }`. The body defaults to GitHub's JSON error
   * (`{ message: 'Server Error', … }` for a 5xx); a string body is sent as it is (an HTML page from
   * a proxy, broken JSON), any other value as JSON. Headers override the JSON `Content-Type`.
   */
  | { kind: 'reply'; status: number; body?: unknown; headers?: Record<string, string> }
  /**
   * GitHub's secondary rate limit: 403 with `retry-after: <seconds>` and the documented message.
   * The `x-ratelimit-*` headers say the primary limit has plenty left, as GitHub's do, so a client
   * that takes every 403 with `x-ratelimit-reset` for the primary limit is caught out.
   */
  | { kind: 'secondary-limit'; retryAfterSeconds: number }
  /**
   * The primary limit exhausted: 403 (or 429), `x-ratelimit-remaining: 0`, `x-ratelimit-reset` at
   * `resetAt` (epoch seconds), and "API rate limit exceeded for installation ID 1234.".
   */
  | { kind: 'primary-limit'; resetAt: number; status?: 403 | 429 }
  /**
   * 200 and headers at once, then the body one byte every 200 ms (a JSON array that never closes),
   * never ending: until the client goes away or the fake closes.
   */
  | { kind: 'trickle' }
  /** Reads the request and never answers: until the client goes away or the fake closes. */
  | { kind: 'silent' }
  /**
   * The normal answer, but its `Link` (all of it) is `rel="next"` to page 1, a page already read:
   * a client that follows `next` blindly goes round forever. GETs only; a 200 answer only.
   */
  | { kind: 'link-loop' }
  /**
   * A list endpoint answers `[]` with a `Link` whose `rel="next"` is always page + 1, forever. The
   * compare endpoint, whose body is an object, answers with its lists (`commits`, `files`) empty
   * instead. GETs only; a 200 answer only.
   */
  | { kind: 'empty-pages' }

export interface FaultRule {
  /** Which requests: method (default any) and a pattern on the path (without query). */
  method?: string
  path: RegExp
  /** How many matching requests get the fault; default: every one (Infinity). */
  times?: number
  fault: GitHubFault
}

/** A rule as the fake keeps it: the method in capitals, and the answers it has left to spoil. */
interface ActiveRule {
  method: string | undefined
  path: RegExp
  left: number
  fault: GitHubFault
}

/** How often a trickling answer sends its next byte. */
const TRICKLE_INTERVAL_MS = 200

interface Commit {
  sha: string
  parents: string[]
  tree: Map<string, string>
  message: string
  /** Creation order: a topological order, since parents exist before their children. */
  order: number
}

interface ReleaseRecord extends FakeRelease {
  id: number
  createdAt: string
}

interface DiffEntry {
  sha: string
  filename: string
  status: 'added' | 'removed' | 'modified' | 'renamed'
  additions: number
  deletions: number
  changes: number
  previous_filename?: string
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> }

const notAccessible = (): Reply => ({
  status: 403,
  body: {
    message: 'Resource not accessible by integration',
    documentation_url: 'https://docs.github.com/rest',
    status: '403'
  }
})

/** A deployment as the API shows it: without the statuses, which have their own endpoint. */
function shownDeployment(deployment: FakeDeployment): Omit<FakeDeployment, 'statuses'> {
  const shown: Partial<FakeDeployment> = { ...deployment }
  delete shown.statuses
  return shown as Omit<FakeDeployment, 'statuses'>
}

const invalid = (field: string): Reply => ({
  status: 422,
  body: {
    message: 'Validation Failed',
    errors: [{ resource: 'Deployment', field, code: 'invalid' }],
    status: '422'
  }
})

/** GitHub's documented limits. */
export const COMPARE_MAX_FILES = 300
const COMPARE_UNPAGED_COMMITS = 250
const COMPARE_MAX_PER_PAGE = 100
const RELEASES_MAX_PER_PAGE = 100
const DEPLOYMENTS_MAX_PER_PAGE = 100
const DEFAULT_PER_PAGE = 30

const notFound = (): Reply => ({
  status: 404,
  body: {
    message: 'Not Found',
    documentation_url: 'https://docs.github.com/rest',
    status: '404'
  }
})

export class FakeGitHubApi {
  readonly requests: RecordedGitHubRequest[] = []
  readonly owner: string
  readonly repo: string
  private readonly tokens: Record<string, Permission>
  private readonly basePath: string
  private readonly commits = new Map<string, Commit>()
  private readonly branches = new Map<string, string>()
  private readonly releases: ReleaseRecord[] = []
  private readonly deploymentList: FakeDeployment[] = []
  private readonly truncatedTrees = new Set<string>()
  private readonly forgotten = new Set<string>()
  private readonly faultRules: ActiveRule[] = []
  /** Trickling answers' intervals, cleared when their answer closes (and on `close`). */
  private readonly timers = new Set<NodeJS.Timeout>()
  private writes = 0
  private statusIds = 0
  private connectionCount = 0

  private constructor(
    private readonly http: LoopbackServer,
    options: FakeGitHubOptions
  ) {
    this.owner = options.owner ?? 'acme'
    this.repo = options.repo ?? 'site'
    this.tokens = options.tokens ?? { 'gh-test-token': 'read' }
    this.basePath = options.basePath ?? ''
  }

  /** Every deployment, oldest first, with its statuses oldest first. */
  get deployments(): readonly FakeDeployment[] {
    return this.deploymentList
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHubApi> {
    const http = new LoopbackServer({}, options.tls)
    const fake = new FakeGitHubApi(http, options)
    http.server.on('connection', () => {
      fake.connectionCount += 1
    })
    await http.listen((request, response) => fake.handle(request, response))
    return fake
  }

  /**
   * Connections clients opened, counted before any handshake: over HTTPS, an attempt whose client
   * refused the certificate is one, though it never became a request.
   */
  get connections(): number {
    return this.connectionCount
  }

  /** The API root, as GITHUB_API_URL gives it. */
  get url(): string {
    return `${this.http.url}${this.basePath}`
  }

  /** Ends every answer still open (trickling, silent) and stops the server. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer)
    this.timers.clear()
    await this.http.close()
  }

  /**
   * Makes matching requests misbehave. Rules are checked in the order added; the first with
   * answers left applies. A faulted request is still recorded, is answered whatever its token, and
   * changes nothing (a faulted POST creates no deployment); `link-loop` and `empty-pages` answer
   * as the endpoint would, and apply to GETs only, which change nothing either.
   */
  fault({ method, path, times = Infinity, fault }: FaultRule): void {
    if (times !== Infinity && !(Number.isInteger(times) && times >= 1)) {
      throw new RangeError(`a fault rule applies at least once, not ${times} times`)
    }
    const upper = method?.toUpperCase()
    if (readOnly(fault) && upper !== undefined && upper !== 'GET') {
      throw new Error(`a ${fault.kind} fault applies to GETs only, not ${upper}`)
    }
    // Without `g` or `y`, `test` keeps no `lastIndex` between requests.
    const pattern = new RegExp(path.source, path.flags.replace(/[gy]/g, ''))
    this.faultRules.push({ method: upper, path: pattern, left: times, fault })
  }

  /** How many more requests the rules with a number of `times` will spoil: 0 when all are spent. */
  faultsLeft(): number {
    return this.faultRules
      .filter((rule) => rule.left !== Infinity)
      .reduce((sum, rule) => sum + rule.left, 0)
  }

  /**
   * Creates a commit on top of `parent` (none: a root commit, from an empty tree); returns its SHA.
   * Only the first parent's tree is changed; more parents make a merge commit.
   */
  commit(parent: string | string[] | null, changes: Change[], message = 'change'): string {
    const parents = parent === null ? [] : Array.isArray(parent) ? parent : [parent]
    const first = parents[0]
    const base = first === undefined ? undefined : this.commits.get(first)
    if (first !== undefined && base === undefined) throw new Error(`no commit ${first}`)
    const tree = new Map(base?.tree)
    for (const change of changes) {
      if ('write' in change) {
        this.writes += 1
        tree.set(change.write, `content ${this.writes} of ${change.write}`)
      } else if ('remove' in change) {
        if (!tree.delete(change.remove)) throw new Error(`cannot remove ${change.remove}`)
      } else {
        const content = tree.get(change.rename)
        if (content === undefined) throw new Error(`cannot rename ${change.rename}`)
        tree.delete(change.rename)
        tree.set(change.to, content)
      }
    }
    const order = this.commits.size
    const sha = sha1(`commit ${order} ${parents.join(' ')} ${message}`)
    this.commits.set(sha, { sha, parents, tree, message, order })
    return sha
  }

  /** A chain of commits on top of `parent`, one per change list; returns their SHAs in order. */
  chain(parent: string, changeLists: Change[][]): string[] {
    const shas: string[] = []
    let tip = parent
    for (const changes of changeLists) {
      tip = this.commit(tip, changes)
      shas.push(tip)
    }
    return shas
  }

  /** Points a branch at a commit. */
  branch(name: string, sha: string): void {
    this.branches.set(name, sha)
  }

  /** Publishes a release (its tag is created at `sha`); returns its release id. */
  release(release: FakeRelease): number {
    const id = 1000 + this.releases.length
    this.releases.push({ ...release, id, createdAt: release.publishedAt })
    return id
  }

  /** A purge mark as an earlier run would have left it: a deployment with these statuses, in order. */
  deploy(environment: string, sha: string, states: string[], runId = '7'): FakeDeployment {
    const deployment = this.createDeployment({
      ref: sha,
      task: 'edge-purge',
      environment,
      description: 'earlier purge',
      payload: { run_id: runId }
    })
    if (deployment.status !== 201) throw new Error(`cannot deploy ${sha}`)
    const made = this.deploymentList[this.deploymentList.length - 1] as FakeDeployment
    for (const state of states) this.addStatus(made, { state })
    return made
  }

  /** GitHub lists this commit's tree only in part, as it does past 100,000 entries or 7 MB. */
  truncateTree(sha: string): void {
    this.truncatedTrees.add(sha)
  }

  /** GitHub no longer has this commit (garbage-collected after a force-push). */
  forget(sha: string): void {
    this.forgotten.add(sha)
  }

  /** Requests whose path matches, in order. */
  requestsTo(pattern: RegExp): RecordedGitHubRequest[] {
    return this.requests.filter((request) => pattern.test(request.path))
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake')
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const recorded: RecordedGitHubRequest = {
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>)
    }
    this.requests.push(recorded)
    const origin = `${new URL(this.http.url).protocol}//${request.headers.host ?? '127.0.0.1'}`
    const fault = this.takeFault(recorded)
    if (fault === undefined) send(response, this.answer(recorded, origin))
    else this.misbehave(fault, recorded, origin, response)
  }

  /** The first rule with answers left that matches the request, spent by one. */
  private takeFault(request: RecordedGitHubRequest): GitHubFault | undefined {
    const method = request.method.toUpperCase()
    const rule = this.faultRules.find(
      (candidate) =>
        candidate.left > 0 &&
        (candidate.method === undefined || candidate.method === method) &&
        (method === 'GET' || !readOnly(candidate.fault)) &&
        candidate.path.test(request.path)
    )
    if (rule === undefined) return undefined
    rule.left -= 1
    return rule.fault
  }

  private misbehave(
    fault: GitHubFault,
    request: RecordedGitHubRequest,
    origin: string,
    response: ServerResponse
  ): void {
    const base = `${origin}${request.path}`
    switch (fault.kind) {
      case 'reply':
        send(response, {
          status: fault.status,
          body: fault.body === undefined ? errorBody(fault.status) : fault.body,
          headers: fault.headers
        })
        return
      case 'secondary-limit':
        send(response, secondaryLimit(fault.retryAfterSeconds))
        return
      case 'primary-limit':
        send(response, primaryLimit(fault.resetAt, fault.status ?? 403))
        return
      case 'trickle':
        this.trickle(response)
        return
      case 'silent':
        // The request has been read; the answer stays open until the client or `close` ends it.
        return
      case 'link-loop':
        send(response, loopingLinks(this.answer(request, origin), base, request.query))
        return
      case 'empty-pages':
        send(response, endlessEmptyPages(this.answer(request, origin), base, request.query))
        return
    }
  }

  /** 200 and headers now, then a byte every 200 ms of a JSON array that never closes. */
  private trickle(response: ServerResponse): void {
    if (response.destroyed) return
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
    response.flushHeaders()
    let sent = 0
    const stop = (): void => {
      clearInterval(timer)
      this.timers.delete(timer)
    }
    const timer = setInterval(() => {
      if (response.destroyed || response.writableEnded) return stop()
      response.write(sent === 0 ? '[' : ' ')
      sent += 1
    }, TRICKLE_INTERVAL_MS)
    this.timers.add(timer)
    response.once('close', stop)
  }

  private answer(request: RecordedGitHubRequest, origin: string): Reply {
    const token = /^(?:token|bearer) (.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    const given = token === undefined ? undefined : this.tokens[token]
    const permission = typeof given === 'string' ? GRANTS[given] : given
    if (token !== undefined && permission === undefined) {
      return {
        status: 401,
        body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }
      }
    }
    // An unauthenticated caller cannot see a private repository: GitHub answers 404, not 401.
    if (permission === undefined) return notFound()

    const prefix = `${this.basePath}/repos/${this.owner}/${this.repo}/`
    if (!request.path.startsWith(prefix)) return notFound()
    const rest = request.path.slice(prefix.length)
    const link = (page: number, last: number): Record<string, string> =>
      pageLinks(`${origin}${request.path}`, request.query, page, last)

    if (rest === 'deployments' || rest.startsWith('deployments/')) {
      const allowed = request.method === 'GET' ? ['read', 'write'] : ['write']
      if (!allowed.includes(permission.deployments)) return notAccessible()
      return this.deploymentsApi(rest, request, link)
    }
    if (request.method !== 'GET') return notFound()
    if (permission.contents === 'none') return notAccessible()
    const tree = /^git\/trees\/([^/]+)$/.exec(rest)
    if (tree !== null) return this.getTree(decodeURIComponent(tree[1] ?? ''), request)

    const compare = /^compare\/([^/]+)$/.exec(rest)
    if (compare !== null) return this.compare(decodeURIComponent(compare[1] ?? ''), request, link)
    if (rest === 'releases') return this.listReleases(request, link)
    return notFound()
  }

  /** `GET /repos/{owner}/{repo}/git/trees/{sha}`: a commit's tree, whole with `recursive=1`. */
  private getTree(ref: string, request: RecordedGitHubRequest): Reply {
    const commit = /^[0-9a-f]{40}$/.test(ref) ? this.resolve(ref) : undefined
    if (commit === undefined) return notFound()
    const recursive = request.query.has('recursive')
    const entries: Record<string, unknown>[] = []
    const folders = new Set<string>()
    for (const [path, content] of commit.tree) {
      const parts = path.split('/')
      if (!recursive && parts.length > 1) {
        folders.add(parts[0] ?? '')
        continue
      }
      for (let depth = 1; depth < parts.length; depth += 1) {
        folders.add(parts.slice(0, depth).join('/'))
      }
      entries.push({
        path,
        mode: '100644',
        type: 'blob',
        sha: sha1(content),
        size: content.length
      })
    }
    for (const folder of folders) {
      entries.push({ path: folder, mode: '040000', type: 'tree', sha: sha1(`tree ${folder}`) })
    }
    entries.sort((a, b) => String(a.path).localeCompare(String(b.path)))
    const truncated = this.truncatedTrees.has(commit.sha)
    return {
      status: 200,
      body: {
        sha: sha1(`tree of ${commit.sha}`),
        url: `https://api.github.com/repos/${this.owner}/${this.repo}/git/trees/${commit.sha}`,
        tree: truncated ? entries.slice(0, Math.ceil(entries.length / 2)) : entries,
        truncated
      }
    }
  }

  /** The deployments endpoints: list, create, and a deployment's statuses (list, create). */
  private deploymentsApi(
    rest: string,
    request: RecordedGitHubRequest,
    link: (page: number, last: number) => Record<string, string>
  ): Reply {
    if (rest === 'deployments') {
      return request.method === 'POST'
        ? this.createDeployment(request.body ?? {})
        : this.listDeployments(request, link)
    }
    const statuses = /^deployments\/(\d+)\/statuses$/.exec(rest)
    const deployment = this.deploymentList.find((made) => String(made.id) === statuses?.[1])
    if (deployment === undefined) return notFound()
    if (request.method === 'POST') {
      const { state, description, log_url, auto_inactive } = request.body ?? {}
      if (typeof state !== 'string' || !DEPLOYMENT_STATES.includes(state)) return invalid('state')
      if (typeof description === 'string' && description.length > MAX_DESCRIPTION) {
        return invalid('description')
      }
      const status = this.addStatus(deployment, {
        state,
        description: typeof description === 'string' ? description : '',
        logUrl: typeof log_url === 'string' ? log_url : '',
        autoInactive: auto_inactive !== false
      })
      return { status: 201, body: { ...status, deployment_url: deployment.id } }
    }
    const perPage = perPageOf(request.query, DEFAULT_PER_PAGE, DEPLOYMENTS_MAX_PER_PAGE)
    const page = pageOf(request.query)
    const newestFirst = [...deployment.statuses].reverse()
    const last = Math.max(1, Math.ceil(newestFirst.length / perPage))
    const body = newestFirst.slice((page - 1) * perPage, page * perPage)
    return { status: 200, body, headers: last > 1 ? link(page, last) : {} }
  }

  /** `GET /repos/{owner}/{repo}/deployments`: newest first, filtered, paged. */
  private listDeployments(
    request: RecordedGitHubRequest,
    link: (page: number, last: number) => Record<string, string>
  ): Reply {
    const filters = (['environment', 'sha', 'ref', 'task'] as const).filter((name) =>
      request.query.has(name)
    )
    const matching = [...this.deploymentList]
      .reverse()
      .filter((made) => filters.every((name) => made[name] === request.query.get(name)))
    const perPage = perPageOf(request.query, DEFAULT_PER_PAGE, DEPLOYMENTS_MAX_PER_PAGE)
    const page = pageOf(request.query)
    const last = Math.max(1, Math.ceil(matching.length / perPage))
    const body = matching.slice((page - 1) * perPage, page * perPage).map(shownDeployment)
    return { status: 200, body, headers: last > 1 ? link(page, last) : {} }
  }

  /** `POST /repos/{owner}/{repo}/deployments`: 201 with the deployment. */
  private createDeployment(body: Record<string, unknown>): Reply {
    const ref = typeof body.ref === 'string' ? body.ref : ''
    const commit = this.resolve(ref)
    if (commit === undefined) return { status: 422, body: { message: `No ref found for: ${ref}` } }
    const description = typeof body.description === 'string' ? body.description : ''
    if (description.length > MAX_DESCRIPTION) return invalid('description')
    const deployment: FakeDeployment = {
      id: 5000 + this.deploymentList.length,
      sha: commit.sha,
      ref,
      task: typeof body.task === 'string' ? body.task : 'deploy',
      environment: typeof body.environment === 'string' ? body.environment : 'production',
      description,
      payload: body.payload ?? {},
      transient_environment: body.transient_environment === true,
      production_environment: body.production_environment === true,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, this.deploymentList.length)).toISOString(),
      statuses: []
    }
    this.deploymentList.push(deployment)
    return { status: 201, body: shownDeployment(deployment) }
  }

  /**
   * Adds a status. A `success` with `auto_inactive` (the default) marks every earlier
   * non-transient, non-production deployment of the environment whose latest status is `success`
   * inactive, as GitHub does.
   */
  private addStatus(
    deployment: FakeDeployment,
    {
      state,
      description = '',
      logUrl = '',
      autoInactive = true
    }: { state: string; description?: string; logUrl?: string; autoInactive?: boolean }
  ): FakeDeploymentStatus {
    this.statusIds += 1
    const status = { id: this.statusIds, state, description, log_url: logUrl }
    deployment.statuses.push(status)
    if (state === 'success' && autoInactive) {
      for (const earlier of this.deploymentList) {
        if (earlier.id >= deployment.id || earlier.environment !== deployment.environment) continue
        if (earlier.transient_environment || earlier.production_environment) continue
        if (earlier.statuses.at(-1)?.state !== 'success') continue
        this.statusIds += 1
        earlier.statuses.push({
          id: this.statusIds,
          state: 'inactive',
          description: '',
          log_url: ''
        })
      }
    }
    return status
  }

  /** `GET /repos/{owner}/{repo}/compare/{base}...{head}`. */
  private compare(
    basehead: string,
    request: RecordedGitHubRequest,
    link: (page: number, last: number) => Record<string, string>
  ): Reply {
    const parts = basehead.split('...')
    if (parts.length !== 2) return notFound()
    const base = this.resolve(parts[0] ?? '')
    const head = this.resolve(parts[1] ?? '')
    if (base === undefined || head === undefined) return notFound()
    const mergeBase = this.mergeBase(base, head)
    if (mergeBase === undefined) {
      return {
        status: 404,
        body: { message: `No common ancestor between ${parts[0]} and ${parts[1]}.`, status: '404' }
      }
    }
    const aheadCommits = this.onlyIn(head, base)
    const behindBy = this.onlyIn(base, head).length
    const status =
      base.sha === head.sha
        ? 'identical'
        : behindBy === 0
          ? 'ahead'
          : aheadCommits.length === 0
            ? 'behind'
            : 'diverged'
    const files = diff(mergeBase.tree, head.tree)

    const paged = request.query.has('page') || request.query.has('per_page')
    const perPage = paged ? perPageOf(request.query, DEFAULT_PER_PAGE, COMPARE_MAX_PER_PAGE) : 0
    const page = paged ? pageOf(request.query) : 1
    const shown = paged
      ? aheadCommits.slice((page - 1) * perPage, page * perPage)
      : aheadCommits.slice(0, COMPARE_UNPAGED_COMMITS)
    const body: Record<string, unknown> = {
      url: `https://api.github.com/repos/${this.owner}/${this.repo}/compare/${basehead}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/compare/${basehead}`,
      base_commit: this.commitSummary(base),
      merge_base_commit: this.commitSummary(mergeBase),
      status,
      ahead_by: aheadCommits.length,
      behind_by: behindBy,
      total_commits: aheadCommits.length,
      commits: shown.map((commit) => this.commitSummary(commit))
    }
    // The list of changed files is only on the first page, and holds at most 300 for the whole
    // comparison.
    if (page === 1) body.files = files.slice(0, COMPARE_MAX_FILES)
    const last = paged ? Math.max(1, Math.ceil(aheadCommits.length / perPage)) : 1
    return { status: 200, body, headers: paged ? link(page, last) : {} }
  }

  /** `GET /repos/{owner}/{repo}/releases`: newest created first, paged. */
  private listReleases(
    request: RecordedGitHubRequest,
    link: (page: number, last: number) => Record<string, string>
  ): Reply {
    const perPage = perPageOf(request.query, DEFAULT_PER_PAGE, RELEASES_MAX_PER_PAGE)
    const page = pageOf(request.query)
    const sorted = [...this.releases].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    const last = Math.max(1, Math.ceil(sorted.length / perPage))
    const body = sorted.slice((page - 1) * perPage, page * perPage).map((release) => ({
      id: release.id,
      url: `https://api.github.com/repos/${this.owner}/${this.repo}/releases/${release.id}`,
      tag_name: release.tag,
      target_commitish: 'main',
      name: release.tag,
      draft: release.draft ?? false,
      prerelease: release.prerelease ?? false,
      created_at: release.createdAt,
      published_at: release.draft === true ? null : release.publishedAt,
      assets: []
    }))
    return { status: 200, body, headers: last > 1 ? link(page, last) : {} }
  }

  /** A full SHA, a unique abbreviation of 7+ characters, a branch or a release's tag. */
  private resolve(ref: string): Commit | undefined {
    const commit = this.resolveKnown(ref)
    return commit === undefined || this.forgotten.has(commit.sha) ? undefined : commit
  }

  private resolveKnown(ref: string): Commit | undefined {
    const named = this.branches.get(ref) ?? this.releases.find((r) => r.tag === ref)?.sha
    if (named !== undefined) return this.commits.get(named)
    if (!/^[0-9a-f]{7,40}$/.test(ref)) return undefined
    const matches = [...this.commits.keys()].filter((sha) => sha.startsWith(ref))
    return matches.length === 1 ? this.commits.get(matches[0] ?? '') : undefined
  }

  private tree(sha: string): Map<string, string> {
    return this.commits.get(sha)?.tree ?? new Map<string, string>()
  }

  /** The commit and all its ancestors. */
  private reachable(from: Commit): Set<string> {
    const seen = new Set<string>()
    const pending = [from.sha]
    for (let sha = pending.pop(); sha !== undefined; sha = pending.pop()) {
      if (seen.has(sha)) continue
      seen.add(sha)
      pending.push(...(this.commits.get(sha)?.parents ?? []))
    }
    return seen
  }

  /** Commits reachable from `tip` but not from `other`, oldest first. */
  private onlyIn(tip: Commit, other: Commit): Commit[] {
    const excluded = this.reachable(other)
    return [...this.reachable(tip)]
      .filter((sha) => !excluded.has(sha))
      .map((sha) => this.commits.get(sha) as Commit)
      .sort((a, b) => a.order - b.order)
  }

  /** The newest common ancestor (enough for the histories tests build). */
  private mergeBase(a: Commit, b: Commit): Commit | undefined {
    const ofA = this.reachable(a)
    return [...this.reachable(b)]
      .filter((sha) => ofA.has(sha))
      .map((sha) => this.commits.get(sha) as Commit)
      .sort((x, y) => y.order - x.order)[0]
  }

  private commitSummary(commit: Commit): Record<string, unknown> {
    const api = `https://api.github.com/repos/${this.owner}/${this.repo}`
    return {
      sha: commit.sha,
      url: `${api}/commits/${commit.sha}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/commit/${commit.sha}`,
      commit: { message: commit.message },
      parents: commit.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}` }))
    }
  }
}

/** What changed from tree `a` to tree `b`, as GitHub lists it: by path, exact renames paired. */
function diff(a: Map<string, string>, b: Map<string, string>): DiffEntry[] {
  const removed = [...a.keys()].filter((path) => !b.has(path))
  const added = [...b.keys()].filter((path) => !a.has(path))
  const entries: DiffEntry[] = []
  const renamedFrom = new Set<string>()
  for (const path of added) {
    const content = b.get(path) ?? ''
    const from = removed.find((old) => !renamedFrom.has(old) && a.get(old) === content)
    if (from !== undefined) {
      renamedFrom.add(from)
      entries.push({ ...entry(path, 'renamed', content, 0), previous_filename: from })
    } else {
      entries.push(entry(path, 'added', content, 1))
    }
  }
  for (const path of removed) {
    if (!renamedFrom.has(path)) entries.push(entry(path, 'removed', a.get(path) ?? '', 1))
  }
  for (const [path, content] of b) {
    if (a.has(path) && a.get(path) !== content) entries.push(entry(path, 'modified', content, 2))
  }
  return entries.sort((x, y) => (x.filename < y.filename ? -1 : x.filename > y.filename ? 1 : 0))
}

function entry(
  filename: string,
  status: DiffEntry['status'],
  content: string,
  changes: number
): DiffEntry {
  return {
    sha: sha1(content),
    filename,
    status,
    additions: status === 'removed' ? 0 : changes,
    deletions: status === 'added' ? 0 : changes,
    changes
  }
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex')
}

function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page') ?? '1')
  return Number.isInteger(page) && page >= 1 ? page : 1
}

/** GitHub clamps `per_page` to the endpoint's maximum. */
function perPageOf(query: URLSearchParams, fallback: number, max: number): number {
  const perPage = Number(query.get('per_page') ?? String(fallback))
  return Number.isInteger(perPage) && perPage >= 1 ? Math.min(perPage, max) : fallback
}

/** One page of a list in a `Link` header: the request's own query, with `page` set. */
function pageTarget(base: string, query: URLSearchParams, page: number): string {
  const params = new URLSearchParams(query)
  params.set('page', String(page))
  return `<${base}?${params.toString()}>`
}

/** GitHub's `Link` header: absolute URLs for next/last (and prev/first after page 1). */
function pageLinks(
  base: string,
  query: URLSearchParams,
  page: number,
  last: number
): Record<string, string> {
  const at = (target: number): string => pageTarget(base, query, target)
  const links: string[] = []
  if (page > 1) links.push(`${at(page - 1)}; rel="prev"`)
  if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`)
  if (page > 1) links.push(`${at(1)}; rel="first"`)
  return links.length === 0 ? {} : { Link: links.join(', ') }
}

/** The faults that answer as the endpoint would, which only a GET may get. */
function readOnly(fault: GitHubFault): boolean {
  return fault.kind === 'link-loop' || fault.kind === 'empty-pages'
}

/** Writes a reply: JSON unless its headers say otherwise; a string body goes as it is. */
function send(response: ServerResponse, reply: Reply): void {
  if (response.destroyed) return
  response.setHeader('Content-Type', 'application/json; charset=utf-8')
  for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value)
  response.writeHead(reply.status)
  // A 1xx, 204 or 304 has no body, whatever the reply holds.
  const bodyless = reply.status < 200 || reply.status === 204 || reply.status === 304
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
  response.end(bodyless ? undefined : text)
}

/** GitHub's JSON error for a status: `Server Error` for any 5xx, as its API answers them. */
function errorBody(status: number): Record<string, string> {
  return {
    message: status >= 500 ? 'Server Error' : (STATUS_CODES[status] ?? 'Error'),
    documentation_url: 'https://docs.github.com/rest',
    status: String(status)
  }
}

/** GitHub's secondary rate limit: wait `retry-after` seconds; the primary limit is far off. */
function secondaryLimit(retryAfterSeconds: number): Reply {
  return {
    status: 403,
    headers: {
      'retry-after': String(retryAfterSeconds),
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '958',
      'x-ratelimit-used': '42',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core'
    },
    body: {
      message:
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try ' +
        'again. If you reach out to GitHub Support for help, please include the request ID ' +
        '0400:1E2B:3C4D5E:6F7A8B:65A1B2C3.',
      documentation_url:
        'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: '403'
    }
  }
}

/** The primary rate limit spent until `resetAt` (epoch seconds), as GitHub Apps' tokens see it. */
function primaryLimit(resetAt: number, status: 403 | 429): Reply {
  return {
    status,
    headers: {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-resource': 'core'
    },
    body: {
      message: 'API rate limit exceeded for installation ID 1234.',
      documentation_url:
        'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-primary-rate-limits',
      status: String(status)
    }
  }
}

/** The answer with a `Link` that sends the client back to page 1. */
function loopingLinks(reply: Reply, base: string, query: URLSearchParams): Reply {
  if (reply.status !== 200) return reply
  return {
    ...reply,
    headers: { ...reply.headers, Link: `${pageTarget(base, query, 1)}; rel="next"` }
  }
}

/** The answer with its lists emptied and a `Link` to the next page, whatever page this is. */
function endlessEmptyPages(reply: Reply, base: string, query: URLSearchParams): Reply {
  if (reply.status !== 200) return reply
  let body: unknown = []
  if (!Array.isArray(reply.body) && typeof reply.body === 'object' && reply.body !== null) {
    const emptied: Record<string, unknown> = { ...(reply.body as Record<string, unknown>) }
    for (const list of ['commits', 'files']) {
      if (Array.isArray(emptied[list])) emptied[list] = []
    }
    body = emptied
  }
  const next = `${pageTarget(base, query, pageOf(query) + 1)}; rel="next"`
  return { ...reply, body, headers: { ...reply.headers, Link: next } }
}
