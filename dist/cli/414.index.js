export const id = 414;
export const ids = [414];
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
// EXTERNAL MODULE: ./src/http/observation.ts
var observation = __webpack_require__(2510);
// EXTERNAL MODULE: ./src/http/retry-policy.ts
var retry_policy = __webpack_require__(7593);
;// CONCATENATED MODULE: ./src/capabilities/edge-check/assets/file-answer.ts




/** The issue's bound: a sixth redirect is not followed. */
const MAX_REDIRECTS = 5;
/** The redirect statuses the Fetch standard follows; a 300 or 304 is an answer, not a way on. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Vendors' hit-or-miss headers whose value holds `HIT` on a hit (observation.ts knows them too). */
const HIT_HEADERS = ['x-cache', 'cf-cache-status', 'x-cache-status'];
/** RFC 9211: a cache that served the answer lists the `hit` parameter. */
const CACHE_STATUS_HIT = /;\s*hit\s*(?=;|,|$)/i;
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
    const cached = (age !== null && age > 0) || saysHit(headers);
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
/** Whether a cache status header, in any case, says a cache served the answer. */
function saysHit(headers) {
    const cacheStatus = (0,retry_policy/* headerValue */.Z)(headers, 'cache-status');
    if (cacheStatus !== undefined && CACHE_STATUS_HIT.test(cacheStatus))
        return true;
    return HIT_HEADERS.some((name) => /hit/i.test((0,retry_policy/* headerValue */.Z)(headers, name) ?? ''));
}

;// CONCATENATED MODULE: ./src/capabilities/edge-check/assets/file-check.ts
/**
 * A file's checks over the run (issue 39, steps 2 and 3): checked again while it fails with a 5xx,
 * and a cached 404 or 410 purged once and checked again; then its one verdict and its evidence.
 */




const FIRST_RECHECK_MS = 500;
const MAX_RECHECK_MS = 5000;
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
        const due = clock.now() + Math.min(MAX_RECHECK_MS, FIRST_RECHECK_MS * 2 ** (state.checks - 1));
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
        const self = withoutFragment(url);
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
function withoutFragment(url) {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
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


/***/ })

};
