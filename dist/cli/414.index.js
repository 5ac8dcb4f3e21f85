export const id = 414;
export const ids = [414,553];
export const modules = {

/***/ 7414:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkAssets: () => (/* binding */ checkAssets)
});

// EXTERNAL MODULE: ./src/http/page-checks.ts
var page_checks = __webpack_require__(1651);
// EXTERNAL MODULE: ./src/text/counted.ts
var counted = __webpack_require__(4305);
// EXTERNAL MODULE: ./src/text/message.ts
var message = __webpack_require__(6400);
// EXTERNAL MODULE: ./src/text/shown.ts
var text_shown = __webpack_require__(8482);
// EXTERNAL MODULE: ./src/capabilities/edge-check/record.ts
var record = __webpack_require__(9118);
// EXTERNAL MODULE: ./src/capabilities/edge-check/check.ts + 2 modules
var check = __webpack_require__(7553);
// EXTERNAL MODULE: ./src/http/observation.ts
var observation = __webpack_require__(2510);
// EXTERNAL MODULE: ./src/http/retry-policy.ts
var retry_policy = __webpack_require__(7593);
;// CONCATENATED MODULE: ./src/capabilities/edge-check/assets/file-answer.ts




/** The issue's bound: a sixth redirect is not followed. */
const MAX_REDIRECTS = 5;
/** The redirect statuses the Fetch standard follows; a 300 or 304 is an answer, not a way on. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * The file's answer, following up to `MAX_REDIRECTS` redirects on any host. Every request's
 * timeout is cut to the time left before `deadline`, and no redirect is followed after it, so a
 * check ends within one request timeout of the deadline. The caller decides whether the first
 * request may start.
 */
async function getFile(url, deadline, requestTimeoutMs, { prober, clock, signal, guard }) {
    let current = url;
    for (let redirects = 0;; redirects++) {
        const timeoutMs = (0,page_checks/* timeoutBefore */.nY)(deadline, clock.now(), requestTimeoutMs);
        const answer = await (0,page_checks/* safeGet */.yw)(prober, current, { timeoutMs, signal, lookFor: undefined });
        if (answer.kind === 'cancelled' || signal.aborted)
            return { reading: 'cancelled' };
        const next = answer.kind === 'response' ? redirectTarget(answer, current) : undefined;
        const read = readAnswer(answer, current, redirects, guard);
        if (next === undefined)
            return read;
        const where = `redirected to ${(0,text_shown/* shownUrl */.zA)(guard, next)}`;
        // A redirect loop or a long chain proves neither that the file loads nor that it is missing.
        if (redirects === MAX_REDIRECTS) {
            return unjudged(read, `${where}: more than ${MAX_REDIRECTS} redirects, not followed`);
        }
        if (clock.now() > deadline) {
            return unjudged(read, `${where}, not followed: no time left within verify-timeout`);
        }
        current = next;
    }
}
function unjudged(read, why) {
    return { ...read, reading: 'unjudged', shown: `${read.shown}, ${why}` };
}
/** Where a redirect leads, fragment dropped; undefined for an answer that is not one. */
function redirectTarget(answer, from) {
    const location = (0,retry_policy/* headerValue */.Z)(answer.headers, 'location');
    if (!REDIRECTS.has(answer.status) || location === undefined)
        return undefined;
    const url = URL.parse(location.trim(), from);
    // Not http(s) (or not a URL): the redirect is read as the answer it is, which proves nothing.
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        return undefined;
    url.hash = '';
    return url.href;
}
/** How a final answer reads; `redirects` says how many led to `url`. */
function readAnswer(answer, url, redirects, guard) {
    const { status, age, cacheStatus, failure } = (0,observation/* observe */.l)(answer, undefined, guard);
    const where = redirects === 0
        ? ''
        : ` at ${(0,text_shown/* shownUrl */.zA)(guard, url)} after ${redirects} redirect${redirects === 1 ? '' : 's'}`;
    if (status === null) {
        return {
            reading: 'unjudged',
            status,
            age,
            url,
            cached: false,
            shown: `no answer${where}: ${failure ?? ''}`
        };
    }
    const details = [age === null ? undefined : `Age ${age} s`, cacheStatus].filter(Boolean);
    const shown = `HTTP ${status}${where}${details.length === 0 ? '' : ` (${details.join(', ')})`}`;
    const headers = answer.kind === 'response' ? answer.headers : {};
    const cached = (age !== null && age > 0) || (0,observation/* saysHit */.I)(headers);
    return { reading: readingOf(status), status, age, url, cached, shown };
}
function readingOf(status) {
    if (status >= 200 && status < 300)
        return 'whole';
    if (status === 404 || status === 410)
        return 'missing';
    if (status >= 500 && status < 600)
        return 'failing';
    // 401, 403, 429, a 3xx not followed, any other: neither proof nor disproof for a visitor.
    return 'unjudged';
}

;// CONCATENATED MODULE: ./src/capabilities/edge-check/assets/file-check.ts
/**
 * A file's checks over the run (issue 39, steps 2 and 3): checked again while it fails with a 5xx,
 * and a cached 404 or 410 purged once and checked again; then its one verdict and its evidence.
 */





/** Words a purge's failure gets in the evidence: enough to say why, short enough for a cell. */
const PURGE_FAILURE_CHARS = 160;
const ORIGIN_LACKS = (status) => `the origin answers ${status}: the page loads a file the deploy did not upload`;
/**
 * One check of a file, for `pollUntilDeadline`: returns when the next is due (a 5xx, or a cached
 * error still cached after its purge, as a stale page is: a purge takes a moment to reach every
 * POP), or undefined when none is. A cached 404 or 410 is purged at once and checked again in the
 * same turn. Nothing is recorded once the run is cancelled.
 */
function checkFile(deadline, deps) {
    const { clock, log, guard, limits } = deps;
    return async (state) => {
        // The poll starts a first check with a free slot whatever the time; none starts past the window.
        if (state.checks === 0 && clock.now() > deadline) {
            state.late = true;
            return undefined;
        }
        const answer = await getFile(state.url, deadline, limits.requestTimeoutMs, deps);
        if (answer.reading === 'cancelled')
            return undefined;
        state.checks += 1;
        state.last = answer;
        const healing = answer.reading === 'missing' && answer.cached && state.cachedError === undefined;
        if (healing && (await heal(state, answer, deadline, deps)) === 'cancelled')
            return undefined;
        const due = clock.now() + (0,check.recheckDelayMs)(state.checks);
        const again = state.last.reading === 'failing' || (stillCached(state) && state.purged);
        state.final = !again || due > deadline;
        if (!state.final)
            return due;
        logVerdict(state, false, log, guard);
        return undefined;
    };
}
/**
 * Purges the URL whose answer was a cached error, then checks the file once more. Purged only on
 * the file's own origin (a redirect may lead to another host, never named to the action) and only
 * within the window.
 */
async function heal(state, cachedError, deadline, deps) {
    const { clock, signal, guard, limits } = deps;
    state.cachedError = cachedError;
    if (new URL(cachedError.url).origin !== new URL(state.url).origin) {
        state.unpurged = 'not purged: it is on another host than the page';
        return undefined;
    }
    if (clock.now() > deadline) {
        state.unpurged = 'not purged: no time left within verify-timeout';
        return undefined;
    }
    state.purging = true;
    const failure = await safePurge(deps, cachedError.url);
    if (signal.aborted)
        return 'cancelled';
    state.purging = false;
    if (failure !== undefined) {
        state.unpurged = `the purge failed: ${guard.oneLine(failure, PURGE_FAILURE_CHARS)}`;
        return undefined;
    }
    state.purged = true;
    // The check after the purge is due now, within the window like any other.
    if (clock.now() > deadline)
        return undefined;
    const answer = await getFile(state.url, deadline, limits.requestTimeoutMs, deps);
    if (answer.reading === 'cancelled')
        return 'cancelled';
    state.checks += 1;
    state.last = answer;
    state.checkedSincePurge = true;
    return undefined;
}
/** A throw from the purge (a bug) is its failure, as a prober's throw fails a check only. */
async function safePurge(deps, url) {
    try {
        return await deps.purgeUrl(url);
    }
    catch (error) {
        return `edge-purge could not purge it: ${(0,message/* messageOf */.b)(error)}`;
    }
}
function stillCached({ last }) {
    return last?.reading === 'missing' && last.cached;
}
/**
 * The file's verdict from its answers. A file whose verdict a cancel cut short is not judged,
 * saying what it showed last: a 5xx is broken only at the end of the window, and a cached error
 * only once its purge was tried.
 */
function verdictOf(state, cancelled) {
    const { last, cachedError, purged, unpurged, final } = state;
    if (last === undefined) {
        return notJudged(state.late ? record/* NOT_CHECKED_IN_TIME */.qT : record/* NOT_JUDGED_CANCELLED */.wE);
    }
    const cut = cancelled && !final;
    const cachedShown = `a cached ${cachedError?.shown ?? ''}`;
    if (purged && !state.checkedSincePurge) {
        const why = cut ? 'the run was cancelled' : 'no time left within verify-timeout';
        return notJudged(`${cachedShown}, purged; not checked again: ${why}`);
    }
    const seen = purged ? `${cachedShown}, purged: now ${last.shown}` : last.shown;
    switch (last.reading) {
        case 'whole':
            return { verdict: purged ? 'healed' : 'whole', evidence: seen };
        case 'unjudged':
            return notJudged(seen);
        case 'failing':
            if (cut)
                return notJudged(`${seen}; not checked again: the run was cancelled`);
            return { verdict: 'broken', evidence: `${seen}, still at the end of verify-timeout` };
        case 'missing':
            if (!last.cached)
                return { verdict: 'broken', evidence: ORIGIN_LACKS(last.status ?? 404) };
            if (unpurged !== undefined)
                return { verdict: 'broken', evidence: `${cachedShown}; ${unpurged}` };
            if (!purged) {
                const when = state.purging ? 'while it was being purged' : 'before it was purged';
                return notJudged(`${cachedShown}; the run was cancelled ${when}`);
            }
            if (cut)
                return notJudged(`${seen}; not checked again: the run was cancelled`);
            return { verdict: 'broken', evidence: `${seen}, still at the end of verify-timeout` };
    }
}
function notJudged(evidence) {
    return { verdict: 'not_judged', evidence };
}
const MARKS = {
    whole: '✓ whole',
    healed: '✓ healed',
    broken: '✗ broken',
    not_judged: '? not judged'
};
/** The file's one line in the log, once its verdict is known. */
function logVerdict(state, cancelled, log, guard) {
    const { verdict, evidence } = verdictOf(state, cancelled);
    log.info(`${MARKS[verdict]} ${(0,text_shown/* shownUrl */.zA)(guard, state.url)}: ${evidence}`);
    state.logged = true;
}

// EXTERNAL MODULE: ./src/capabilities/edge-check/urls.ts
var urls = __webpack_require__(8697);
;// CONCATENATED MODULE: ./src/capabilities/edge-check/assets/check-files.ts
/**
 * The check of the files each page loads (issue 39, steps 2 to 4): each file on a page's own
 * origin asked for once per run through the CDN, within the edge check's window, its cached errors
 * purged and checked again; every file of every page counted once per page.
 */




/** The issue's bounds: the files checked for one page, and in one run. */
const MAX_FILES_PER_PAGE = 100;
const MAX_FILES_PER_RUN = 1000;
/**
 * Checks the files `request.pages` load, up to `deps.limits.concurrency` at once, until each has a
 * verdict, the deadline passes, or the run is cancelled (then it returns at once, the files without
 * a verdict not judged).
 */
async function checkAssets(request, deps) {
    const { clock, signal, log, limits } = deps;
    const { files, pages } = filesByPage(request.pages);
    const { concurrency } = limits;
    const title = `Files the pages load: ${(0,counted/* counted */.h)(files.length, 'file')} from ${(0,counted/* counted */.h)(pages.size, 'page')} (up to ${concurrency} at once, 5xx checked again, cached errors purged)`;
    return log.group(title, async () => {
        const { deadline } = request;
        const check = checkFile(deadline, deps);
        const late = await (0,page_checks/* pollUntilDeadline */._K)(files, check, { deadline, concurrency, clock, signal });
        for (const file of late)
            file.late ||= file.checks === 0;
        return outcomeOf(files, pages, deps);
    });
}
/**
 * Each page's files, a file shared by pages made once. A page's first `MAX_FILES_PER_PAGE` files
 * in document order are its own to count, whether or not another page loads them too (so a page's
 * counts do not hang on the other pages); the rest, and new files once the run holds
 * `MAX_FILES_PER_RUN`, are over its limit. A file that is the page itself (`src="#"`) is not a
 * file it loads, and counts nowhere. A page named twice is counted once.
 */
function filesByPage(pages) {
    const files = new Map();
    const byPage = new Map();
    for (const { url, found } of pages) {
        if (byPage.has(url))
            continue;
        const self = (0,urls/* withoutFragment */.f2)(url);
        const own = found.files.filter((file) => file !== self);
        const counts = { files: [], otherHost: found.otherHost.length, overLimit: 0 };
        byPage.set(url, counts);
        for (const [index, fileUrl] of own.entries()) {
            const known = files.get(fileUrl);
            if (index >= MAX_FILES_PER_PAGE || (known === undefined && files.size >= MAX_FILES_PER_RUN)) {
                counts.overLimit += 1;
                continue;
            }
            const file = known ?? newFile(fileUrl);
            files.set(fileUrl, file);
            file.pages.push(url);
            counts.files.push(file);
        }
    }
    return { files: [...files.values()], pages: byPage };
}
function newFile(url) {
    return {
        url,
        pages: [],
        checks: 0,
        purged: false,
        purging: false,
        checkedSincePurge: false,
        final: false,
        late: false,
        logged: false
    };
}
/** The entries and each page's counts; the log's lines for the files the checks did not end. */
function outcomeOf(files, pages, { signal, log, guard }) {
    const cancelled = signal.aborted;
    const verdicts = new Map(files.map((file) => [file, verdictOf(file, cancelled)]));
    const verdictFor = (file) => verdicts.get(file) ?? verdictOf(file, cancelled);
    // A 5xx whose next check the deadline stopped was never logged; an unchecked file gets no line
    // of its own: there may be a thousand.
    for (const file of files) {
        if (!file.logged && file.last !== undefined)
            logVerdict(file, cancelled, log, guard);
    }
    const entries = files.map((file) => {
        const { verdict, evidence } = verdictFor(file);
        const { url, pages: loadedBy, last, purged } = file;
        const [page = ''] = loadedBy;
        const status = last?.status ?? null;
        return {
            url,
            page,
            pages: loadedBy.length,
            http_status: status,
            age: last?.age ?? null,
            verdict,
            purged,
            evidence
        };
    });
    const counts = new Map();
    for (const [url, { files: loaded, otherHost, overLimit }] of pages) {
        const tally = {
            whole: 0,
            broken: 0,
            healed: 0,
            not_judged: 0,
            other_host: otherHost,
            over_limit: overLimit
        };
        for (const file of loaded)
            tally[verdictFor(file).verdict] += 1;
        counts.set(url, tally);
    }
    logTotals(files, entries, counts, cancelled, log);
    return { files: entries, pages: counts, cancelled };
}
/** The lines that close the group: the files never checked, and the counts. */
function logTotals(files, entries, pages, cancelled, log) {
    const late = files.filter((file) => file.late).length;
    if (late > 0) {
        log.info(`${(0,counted/* counted */.h)(late, 'file')} not checked within verify-timeout: raise verify-timeout or concurrency`);
    }
    const unchecked = files.filter((file) => file.last === undefined && !file.late).length;
    if (unchecked > 0)
        log.info(`${(0,counted/* counted */.h)(unchecked, 'file')} not checked: the run was cancelled`);
    const total = (verdict) => entries.filter((entry) => entry.verdict === verdict).length;
    let otherHost = 0;
    let overLimit = 0;
    for (const counts of pages.values()) {
        otherHost += counts.other_host;
        overLimit += counts.over_limit;
    }
    const ending = cancelled ? ' (the run was cancelled)' : '';
    log.info(`${total('whole')} whole, ${total('healed')} healed, ${total('broken')} broken, ${total('not_judged')} not judged${ending}; not checked, counted by page: ${otherHost} on another host, ${overLimit} over the limit`);
}


/***/ }),

/***/ 7553:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkEdge: () => (/* binding */ checkEdge),
  recheckDelayMs: () => (/* binding */ recheckDelayMs)
});

// EXTERNAL MODULE: ./src/http/observation.ts
var http_observation = __webpack_require__(2510);
// EXTERNAL MODULE: ./src/http/page-checks.ts
var page_checks = __webpack_require__(1651);
// EXTERNAL MODULE: ./src/capabilities/edge-check/record.ts
var record = __webpack_require__(9118);
// EXTERNAL MODULE: ./src/text/counted.ts
var counted = __webpack_require__(4305);
// EXTERNAL MODULE: ./src/text/shown.ts
var shown = __webpack_require__(8482);
;// CONCATENATED MODULE: ./src/capabilities/edge-check/freshness.ts

function judge(observation, rule, guard) {
    const { status, age, malformedAge, undecodable, cacheStatus, failure } = observation;
    const via = cacheStatus === undefined ? '' : ` (${cacheStatus})`;
    if (status === null)
        return { fresh: false, evidence: failure ?? 'no answer' };
    if (status >= 500)
        return { fresh: false, evidence: `HTTP ${status}${via}` };
    // `HTTP 404, ` for answers other than 2xx: a fresh 404 or a 301 is worth a second look.
    const prefix = status >= 200 && status < 300 ? '' : `HTTP ${status}, `;
    if (undecodable !== undefined)
        return { fresh: false, evidence: `${prefix}${undecodable}${via}` };
    if ('text' in rule) {
        const fresh = observation.textSeen === true;
        const evidence = `${prefix}${fresh ? 'showed' : 'did not show'} ${(0,shown/* quoted */.TL)(guard, rule.text)}${via}`;
        return { fresh, evidence };
    }
    const elapsedS = Math.max(0, rule.nowMs - rule.purgeStartedMs) / 1000;
    const began = `${Math.floor(elapsedS)} s ago`;
    if (malformedAge !== undefined) {
        return { fresh: false, evidence: `${prefix}${malformedAge}${via}` };
    }
    if (age === null)
        return { fresh: true, evidence: `${prefix}no Age header${via}` };
    // `Age` has whole seconds and the purge time is ours: a second of slack keeps a copy made just
    // after the first call from looking older than it.
    return age <= elapsedS + 1
        ? { fresh: true, evidence: `${prefix}Age ${age} s, purge began ${began}${via}` }
        : { fresh: false, evidence: `${prefix}Age ${age} s, but the purge began ${began}${via}` };
}

// EXTERNAL MODULE: ./src/http/blocked.ts
var http_blocked = __webpack_require__(1048);
;// CONCATENATED MODULE: ./src/capabilities/edge-check/blocks.ts
/**
 * The checks a proxy's refusal or a certificate problem makes pointless: no retry gets past either,
 * every other page behind the same wall meets it too, and a company proxy locks an account after a
 * few failed logins. Pure but for the proxy variables, read as the agents read them.
 */

/**
 * Whether a check of `url` would meet `block`: after a 407 every URL behind the same proxy would;
 * after a 403 (or another refusal) or a certificate problem, every URL on the same host and port.
 */
function meets(block, url) {
    if (!URL.canParse(url))
        return false;
    const target = new URL(url);
    if ((0,http_blocked/* hostAndPort */.PG)(target) === (0,http_blocked/* hostAndPort */.PG)(new URL(block.url)))
        return true;
    const { blocked } = block;
    return ((0,http_blocked/* reachOf */.xw)(blocked) === 'proxy' && blocked.kind === 'proxy' && (0,http_blocked/* proxyFor */.iJ)(target) === blocked.proxy);
}
/** Why a URL `block` meets gets no check (or no further one): what the earlier check found. */
function sparedBy(block) {
    const where = (0,http_blocked/* reachOf */.xw)(block.blocked) === 'proxy' ? 'through the same proxy' : 'of the same host and port';
    return `an earlier check ${where} found that ${block.sentence}`;
}

;// CONCATENATED MODULE: ./src/capabilities/edge-check/check.ts
/**
 * The edge check's work: after the purge, fetch each URL as a visitor would and judge whether the
 * edge now serves content produced after the purge began, re-checking stale ones for a while (a
 * soft purge serves the old copy once while it refetches; a CDN needs a moment to reach every POP).
 */







const FIRST_RECHECK_MS = 500;
const MAX_RECHECK_MS = 5000;
/**
 * The wait before the next check of what a check found not yet right (a stale page, a failing
 * file), after `checks` checks: 0.5 s, 1 s, 2 s, 4 s, then 5 s.
 */
function recheckDelayMs(checks) {
    return Math.min(MAX_RECHECK_MS, FIRST_RECHECK_MS * 2 ** Math.max(0, checks - 1));
}
/** What the verdict rests on, and why there is none or no later one. */
function evidenceOf({ judgement, final, late, spared }, cancelled) {
    if (judgement === undefined) {
        if (late)
            return record/* NOT_CHECKED_IN_TIME */.qT;
        return spared === undefined ? record/* NOT_JUDGED_CANCELLED */.wE : `not checked: ${spared}`;
    }
    if (spared !== undefined)
        return `${judgement.evidence}; not checked again: ${spared}`;
    return cancelled && !final
        ? `${judgement.evidence}; not checked again: the run was cancelled`
        : judgement.evidence;
}
async function checkEdge(settings, { requestTimeoutMs, concurrency }, deps) {
    const { clock, signal, log } = deps;
    const deadline = clock.now() + settings.timeoutMs;
    const progress = settings.targets.map((target) => ({
        target,
        checks: 0,
        final: false,
        late: false
    }));
    const check = checkOnce(settings, deadline, requestTimeoutMs, deps);
    const seconds = `${settings.timeoutMs / 1000} s`;
    const title = `Edge check: ${(0,counted/* counted */.h)(progress.length, 'URL')} (up to ${concurrency} at once, stale ones re-checked; no check starts after ${seconds})`;
    return log.group(title, async () => {
        const late = await (0,page_checks/* pollUntilDeadline */._K)(progress, check, { deadline, concurrency, clock, signal });
        for (const state of late)
            state.late = state.checks === 0;
        return outcomeOf(progress, seconds, deps);
    });
}
/**
 * One check of a URL, which returns when the re-check is due: none once it is fresh, no time is
 * left, or a proxy's refusal or a certificate problem stands in the way (none after those: they
 * are final, and spare every URL behind the same wall its check).
 */
function checkOnce({ purgeStartedMs, onPage }, deadline, requestTimeoutMs, { prober, clock, signal, log, guard }) {
    const blocks = [];
    return async (state) => {
        const { url, text } = state.target;
        const block = blocks.find((one) => meets(one, url));
        if (block !== undefined) {
            state.spared = sparedBy(block);
            return undefined;
        }
        // A first check keeps the full timeout, so its verdict never comes from a cut of ours; it still
        // ends within one timeout of the deadline. Re-checks share what is left, and the floor never
        // lifts one above `timeout` (below 1 s), which would break that bound.
        const timeoutMs = state.checks === 0 ? requestTimeoutMs : (0,page_checks/* timeoutBefore */.nY)(deadline, clock.now(), requestTimeoutMs);
        const lookFor = onPage === undefined ? text : undefined;
        const answer = await (0,page_checks/* safeGet */.yw)(prober, url, { timeoutMs, signal, lookFor });
        if (answer.kind === 'cancelled')
            return undefined;
        if (answer.kind === 'response' && isHtml(answer.headers['content-type'])) {
            onPage?.(url, answer.body);
        }
        const observation = (0,http_observation/* observe */.l)(answer, text, guard);
        const rule = text === undefined ? { purgeStartedMs, nowMs: clock.now() } : { text };
        const judgement = judge(observation, rule, guard);
        state.checks += 1;
        state.observation = observation;
        state.judgement = judgement;
        const delay = recheckDelayMs(state.checks);
        const due = clock.now() + delay;
        state.final = judgement.fresh || answer.kind === 'blocked' || due > deadline;
        if (answer.kind === 'blocked') {
            blocks.push({ blocked: answer.blocked, url, sentence: judgement.evidence });
        }
        log.info(describeCheck(state, answer.kind === 'blocked' ? undefined : delay, guard));
        return state.final ? undefined : due;
    };
}
/** Whether an answer is a page of HTML, whose files the assets check looks for. */
function isHtml(contentType) {
    const type = contentType?.split(';')[0]?.trim().toLowerCase();
    return type === 'text/html' || type === 'application/xhtml+xml';
}
/** The check's line; `delay` is undefined when the answer was a block no re-check gets past. */
function describeCheck(state, delay, guard) {
    const { target, checks, observation, judgement, final } = state;
    const fresh = judgement?.fresh === true;
    const next = fresh
        ? ''
        : delay === undefined
            ? '; not checked again: no retry gets past it'
            : final
                ? '; no time left to check again'
                : `; checking again in ${delay / 1000} s`;
    const verdict = fresh ? '✓ fresh' : observation?.status === null ? '✗ unreachable' : '✗ stale';
    return `${verdict} ${(0,shown/* shownUrl */.zA)(guard, target.url)}: ${judgement?.evidence ?? ''} (check ${checks}${next})`;
}
/** What the edge check found, told in the log in one line of counts. */
function outcomeOf(progress, seconds, deps) {
    const { signal, log } = deps;
    const cancelled = signal.aborted;
    const entries = progress.map((state) => ({
        url: state.target.url,
        fresh: state.judgement?.fresh ?? false,
        http_status: state.observation?.status ?? null,
        age: state.observation?.age ?? null,
        checks: state.checks,
        evidence: evidenceOf(state, cancelled)
    }));
    const late = progress.filter((state) => state.late).length;
    if (late > 0) {
        // One line, not one per URL: there may be a thousand.
        log.info(`${(0,counted/* counted */.h)(late, 'URL')} not checked within verify-timeout (${seconds}): raise verify-timeout or concurrency`);
    }
    // How many URLs each block spared a check, in the order the blocks were met.
    const spared = new Map();
    for (const { spared: why } of progress) {
        if (why !== undefined)
            spared.set(why, (spared.get(why) ?? 0) + 1);
    }
    for (const [why, count] of spared) {
        log.info(`${(0,counted/* counted */.h)(count, 'URL')} not checked any further: ${why}`);
    }
    const counts = (0,record/* edgeCounts */.ID)(entries);
    const ending = cancelled ? ' (the run was cancelled)' : '';
    const unreachable = counts.unreachable > 0 ? `, ${counts.unreachable} unreachable` : '';
    const notChecked = counts.unchecked > 0 ? `, ${counts.unchecked} not checked` : '';
    log.info(`${counts.fresh} fresh, ${counts.stale} stale${unreachable}${notChecked}${ending}`);
    const malformedAge = progress
        .filter((state) => state.observation?.malformedAge !== undefined)
        .map((state) => state.target.url);
    return { entries, cancelled, malformedAge };
}


/***/ })

};
