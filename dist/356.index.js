export const id = 356;
export const ids = [356];
export const modules = {

/***/ 8356:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkAssets: () => (/* binding */ checkAssets)
});

// EXTERNAL MODULE: ./src/http/page-checks.ts
var page_checks = __webpack_require__(1651);
// EXTERNAL MODULE: ./src/text/counted.ts
var counted = __webpack_require__(4305);
// EXTERNAL MODULE: ./node_modules/htmlparser2/dist/Parser.js + 7 modules
var Parser = __webpack_require__(6963);
;// CONCATENATED MODULE: ./src/capabilities/edge-check/assets/extract.ts
/**
 * The files an HTML page loads (issue 39, step 1): read from the markup by an HTML parser, resolved
 * as a browser resolves them, split by origin. Pure: no request, no clock.
 *
 * Why htmlparser2 and not parse5: only start tags and their attributes matter here, and
 * htmlparser2's `Parser` hands them over as a stream, with names lowercased, entities in values
 * decoded, and the raw text of `<script>`, `<style>`, `<textarea>`, `<title>` (and the other raw
 * text elements) and comments never read as tags. parse5 builds the spec's whole tree (foster
 * parenting, the adoption agency) that this never looks at. Bundled by ncc unminified, as dist/
 * is, parse5 alone is 403 KB; this module with htmlparser2 is 152 KB, most of it the table of
 * named character references, in a lazy chunk that only runs with verify-assets load.
 */

/** A `<link>` loads its `href` when its `rel` holds one of these tokens ("shortcut icon" too). */
const LOADING_RELS = new Set([
    'stylesheet',
    'modulepreload',
    'preload',
    'icon',
    'manifest'
]);
/**
 * The files `html` loads, resolved against `pageUrl` (the absolute http(s) URL it was fetched from)
 * and the document's first `<base href>`. Only http(s) URLs are kept: `data:`, `blob:`,
 * `javascript:`, `mailto:` and every other scheme name no file the edge check could ask for.
 * Throws only when `pageUrl` is not an absolute URL.
 */
function filesOf(html, pageUrl) {
    const page = new URL(pageUrl);
    const { base, values } = referencesOf(html);
    const against = baseOf(base, page);
    const files = new Set();
    const otherHost = new Set();
    for (const value of values) {
        const url = fileUrl(value, against);
        if (url === undefined)
            continue;
        if (url.origin === page.origin)
            files.add(url.href);
        else
            otherHost.add(url.href);
    }
    return { files: [...files], otherHost: [...otherHost] };
}
/**
 * Every URL the loading elements name, read before any is resolved: the document's base URL is
 * its first `<base href>` wherever that stands, so it is known only once the whole page is read.
 * What `<noscript>` and `<template>` hold counts too: some visitors or scripts load it.
 */
function referencesOf(html) {
    const found = { base: undefined, values: [] };
    const parser = new Parser/* Parser */.i({
        onopentag(name, attributes) {
            if (name === 'base')
                found.base ??= attributes.href;
            else
                found.values.push(...urlsOf(name, attributes));
        }
    }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
    parser.end(html);
    return found;
}
/** The URLs one start tag loads (its name and attribute names already lowercased), as written. */
function urlsOf(name, attributes) {
    const { src, href, rel, srcset, poster } = attributes;
    switch (name) {
        case 'script':
            return present(src);
        case 'link':
            return loads(rel) ? present(href) : [];
        case 'img':
            return [...present(src), ...srcsetUrls(srcset)];
        case 'source':
            return srcsetUrls(srcset);
        case 'video':
            return present(poster);
        default:
            return [];
    }
}
function present(value) {
    return value === undefined ? [] : [value];
}
/** `rel` is a set of space-separated tokens, compared ASCII case-insensitively. */
function loads(rel) {
    if (rel === undefined)
        return false;
    return rel.split(/[\t\n\f\r ]+/).some((token) => LOADING_RELS.has(token.toLowerCase()));
}
/**
 * The URL relative values resolve against: the first `<base href>` (itself resolved against the
 * page), unless it does not parse or is not http(s) (`javascript:`, `data:`, …): then the page's,
 * as a browser falls back to the document's URL rather than to a later `<base>`.
 */
function baseOf(base, page) {
    if (base === undefined)
        return page;
    const url = URL.parse(trimmed(base), page.href);
    return url !== null && isHttp(url) ? url : page;
}
/** The absolute URL a value names, fragment dropped; none for an empty, unparseable or non-http(s) one. */
function fileUrl(value, base) {
    const text = trimmed(value);
    if (text === '')
        return undefined;
    const url = URL.parse(text, base.href);
    if (url === null || !isHttp(url))
        return undefined;
    url.hash = '';
    return url;
}
function isHttp(url) {
    return url.protocol === 'http:' || url.protocol === 'https:';
}
/** HTML strips ASCII whitespace only: a no-break space is part of a URL. */
function trimmed(value) {
    return value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
}
/**
 * The URL of every candidate in a `srcset`, split as the HTML spec's "parse a srcset attribute"
 * splits it: a URL runs to the next ASCII whitespace and may hold commas; commas at its end close
 * the candidate; else descriptors follow up to a comma outside parentheses. Descriptors are skipped,
 * not judged: a candidate whose descriptor is wrong still names a file the page means to load.
 * Why not a library: `srcset` (sindresorhus) splits by a regular expression that reads `a 1x` as
 * the URL `1x` and yields `,` for empty candidates; `@prettier/parse-srcset` follows the spec but,
 * made for a formatter, throws on the whole attribute for one bad descriptor (`2X`), losing the
 * candidates a browser still loads.
 */
function srcsetUrls(srcset) {
    if (srcset === undefined)
        return [];
    const urls = [];
    let position = skip(srcset, 0, (char) => char === ',' || isSpace(char));
    while (position < srcset.length) {
        const end = skip(srcset, position, (char) => !isSpace(char));
        const written = srcset.slice(position, end);
        const url = written.replace(/,+$/, '');
        urls.push(url);
        position = url.length < written.length ? end : afterDescriptors(srcset, end);
        position = skip(srcset, position, (char) => char === ',' || isSpace(char));
    }
    return urls;
}
/** Where a candidate's descriptors end: past the first comma outside parentheses, or the end. */
function afterDescriptors(srcset, from) {
    let inParens = false;
    for (let position = from; position < srcset.length; position++) {
        const char = srcset.charAt(position);
        if (inParens)
            inParens = char !== ')';
        else if (char === '(')
            inParens = true;
        else if (char === ',')
            return position + 1;
    }
    return srcset.length;
}
function skip(text, from, matches) {
    let position = from;
    while (position < text.length && matches(text.charAt(position)))
        position++;
    return position;
}
function isSpace(char) {
    return char === ' ' || char === '\t' || char === '\n' || char === '\f' || char === '\r';
}

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
    for (const { url, html } of pages) {
        if (byPage.has(url))
            continue;
        const found = filesOf(html, url);
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


/***/ }),

/***/ 2510:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   l: () => (/* binding */ observe)
/* harmony export */ });
/* harmony import */ var _probe_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6187);
/* harmony import */ var _retry_policy_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7593);
/* harmony import */ var _blocked_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1048);
/* harmony import */ var _text_shown_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8482);




/** Vendors' names for "hit or miss", in the order they are preferred when several are sent. */
const CACHE_STATUS_HEADERS = ['X-Cache', 'Cache-Status', 'CF-Cache-Status', 'X-Cache-Status'];
/** Server text inside evidence: long enough to recognise, short enough for a table cell. */
const SHOWN_VALUE_CHARS = 80;
const SHOWN_FAILURE_CHARS = 160;
/**
 * A block's sentence is ours, around at most three host names (253 characters each): shown whole,
 * since its end is the fix.
 */
const SHOWN_BLOCKED_CHARS = 1000;
/** RFC 9111 §1.2.2: a number of seconds too large to hold counts as 2^31. */
const MAX_AGE_S = 2 ** 31;
/**
 * `Age` is one non-negative integer (RFC 9111 §5.1), but an intermediary may join two tiers' values
 * into a list or send a line each: the largest is the copy's age. Any other value proves nothing,
 * so it is never read as a young copy.
 */
function readAge(lines, guard) {
    if (lines.length === 0)
        return { age: null, malformedAge: undefined };
    const values = lines
        .flatMap((line) => line.split(','))
        .map((value) => value.trim())
        .filter((value) => value !== '');
    if (values.length === 0 || !values.every((value) => /^\d+$/.test(value))) {
        const why = values.length === 0 ? 'empty' : 'not a whole number of seconds';
        return {
            age: null,
            malformedAge: `malformed Age header ${(0,_text_shown_js__WEBPACK_IMPORTED_MODULE_3__/* .quoted */ .TL)(guard, lines.join(', '))}: ${why}`
        };
    }
    const largest = values.reduce((most, value) => Math.max(most, Number(value)), 0);
    return { age: Math.min(largest, MAX_AGE_S), malformedAge: undefined };
}
function cacheStatusOf(headers, guard) {
    for (const name of CACHE_STATUS_HEADERS) {
        const value = (0,_retry_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .headerValue */ .Z)(headers, name.toLowerCase());
        if (value !== undefined)
            return `${name}: ${guard.oneLine(value, SHOWN_VALUE_CHARS)}`;
    }
    return undefined;
}
/** What a page's answer showed; its words pass `guard`, the run's. */
function observe(answer, text, guard) {
    switch (answer.kind) {
        case 'response': {
            const { headers, body } = answer;
            const textSeen = text === undefined ? undefined : body.includes(text) || (0,_probe_js__WEBPACK_IMPORTED_MODULE_0__/* .headersShow */ .a)(headers, text);
            return {
                status: answer.status,
                ...readAge(answer.ageLines, guard),
                undecodable: answer.undecodable === undefined
                    ? undefined
                    : guard.oneLine(answer.undecodable, SHOWN_FAILURE_CHARS),
                textSeen,
                cacheStatus: cacheStatusOf(headers, guard)
            };
        }
        case 'network':
            return failed(`network error: ${guard.oneLine(answer.message, SHOWN_FAILURE_CHARS)}`);
        case 'blocked':
            return failed(guard.oneLine((0,_blocked_js__WEBPACK_IMPORTED_MODULE_2__/* .describeBlocked */ .G)(answer.blocked), SHOWN_BLOCKED_CHARS));
        case 'timeout':
            return failed(guard.oneLine(answer.message, SHOWN_FAILURE_CHARS));
        case 'cancelled':
            return failed('the run was cancelled');
    }
}
function failed(failure) {
    return { status: null, age: null, malformedAge: undefined, failure };
}


/***/ }),

/***/ 1651:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   _K: () => (/* binding */ pollUntilDeadline),
/* harmony export */   nY: () => (/* binding */ timeoutBefore),
/* harmony export */   yw: () => (/* binding */ safeGet)
/* harmony export */ });
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _probe_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6187);
/* harmony import */ var _text_message_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6400);



/** A request cut to the time left still gets this long: a check with no time to answer proves nothing. */
const MIN_REQUEST_TIMEOUT_MS = 1000;
/**
 * A check's timeout when it must end by `deadline`: the time left, but at least
 * `MIN_REQUEST_TIMEOUT_MS`, and never more than the request `timeout` the user set.
 */
function timeoutBefore(deadline, now, requestTimeoutMs) {
    return Math.min(requestTimeoutMs, Math.max(MIN_REQUEST_TIMEOUT_MS, deadline - now));
}
/** A throw from the prober (a bug) fails that check only, as the engine does for a call. */
async function safeGet(prober, url, options) {
    try {
        return await prober.get(url, options);
    }
    catch (error) {
        const message = `edge-purge could not check it: ${(0,_text_message_js__WEBPACK_IMPORTED_MODULE_2__/* .messageOf */ .b)(error)}`;
        return { kind: 'network', code: undefined, message };
    }
}
/**
 * Checks each of `subjects` over and over, up to `concurrency` at once, until its `check` says no
 * further check is due, or the run is cancelled. `check` returns when its subject's next check is
 * due (ms epoch), or undefined when none is. A check due by the deadline starts when its timer
 * wakes, a moment after; one that waited for a free slot until after the deadline is not made, and
 * its subject is among those returned.
 */
async function pollUntilDeadline(subjects, check, { deadline, concurrency, clock, signal }) {
    const slots = new _probe_js__WEBPACK_IMPORTED_MODULE_1__/* .ProbeSlots */ ._(concurrency);
    const tooLate = new Set();
    const poll = async (subject) => {
        for (;;) {
            const due = await slots.run(async (queued) => {
                if (signal.aborted)
                    return undefined;
                if (queued && clock.now() > deadline) {
                    tooLate.add(subject);
                    return undefined;
                }
                return check(subject);
            });
            if (due === undefined || signal.aborted)
                return;
            const pause = due - clock.now();
            if (pause > 0)
                await clock.sleep(pause, signal);
        }
    };
    // A cancelled stage returns at once, leaving checks in flight to the abort they were given.
    await (0,_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .unlessCancelled */ .MS)(Promise.all(subjects.map(poll)).then(() => undefined), signal, () => undefined);
    return tooLate;
}


/***/ }),

/***/ 6187:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  _: () => (/* binding */ ProbeSlots),
  createProber: () => (/* binding */ createProber),
  a: () => (/* binding */ headersShow)
});

// EXTERNAL MODULE: ./src/http/agents.ts
var http_agents = __webpack_require__(1292);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
;// CONCATENATED MODULE: ./src/http/content-coding.ts

/**
 * More layers than any server applies on purpose: each one is a decoder and a buffer, and a list
 * of hundreds would cost the runner more than the page is worth.
 */
const MAX_CODINGS = 4;
/** A coding name or a header shown inside a reason: enough to recognise it. */
const SHOWN_CODING_CHARS = 40;
/**
 * `x-gzip` is the old name of gzip (RFC 9110 §8.4.1.3); names are case-insensitive. A Map, so a
 * server's `constructor` or `__proto__` is an unknown coding, not a property every object has.
 */
const NAMES = new Map([
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['br', 'br']
]);
/**
 * The codings of a `Content-Encoding` value, in the order applied (RFC 9110 §8.4). `identity` and
 * empty list elements add no layer; an unknown coding, or more than `MAX_CODINGS`, is refused.
 */
function codingsOf(header, guard) {
    const names = (header ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== '' && name !== 'identity');
    const unknown = names.find((name) => !NAMES.has(name));
    const codings = names.flatMap((name) => NAMES.get(name) ?? []);
    if (unknown === undefined && codings.length <= MAX_CODINGS)
        return { kind: 'codings', codings };
    // The coding edge-purge does not know, or else the whole list that holds too many.
    const shown = guard.oneLine(unknown ?? header ?? '', SHOWN_CODING_CHARS);
    const reason = unknown === undefined
        ? `Content-Encoding "${shown}" lists ${codings.length} codings; edge-purge decodes at most ${MAX_CODINGS}`
        : `Content-Encoding "${shown}" is not one edge-purge can decode`;
    return { kind: 'refused', reason };
}
/**
 * Lenient flushing, as browsers are: a body cut short still yields the text decoded so far
 * instead of an error.
 */
function decoderOf(coding) {
    switch (coding) {
        case 'gzip':
            return external_node_zlib_.createGunzip({ finishFlush: external_node_zlib_.constants.Z_SYNC_FLUSH });
        case 'deflate':
            return external_node_zlib_.createInflate({ finishFlush: external_node_zlib_.constants.Z_SYNC_FLUSH });
        case 'br':
            return external_node_zlib_.createBrotliDecompress({ finishFlush: external_node_zlib_.constants.BROTLI_OPERATION_FLUSH });
    }
}
/** The decoders to pipe the body through, in order: the last coding applied is undone first. */
function decodersFor(codings) {
    return [...codings].reverse().map(decoderOf);
}

// EXTERNAL MODULE: ./src/http/exchange.ts + 1 modules
var exchange = __webpack_require__(4447);
// EXTERNAL MODULE: ./node_modules/content-type/dist/index.js
var dist = __webpack_require__(2372);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
;// CONCATENATED MODULE: ./src/http/page-text.ts
/** How a page's decoded bytes become text: a byte order mark, else the `Content-Type` charset, else UTF-8. */


/** What a page without a usable charset is read as: what nearly every page today is written in. */
const DEFAULT_LABEL = 'utf-8';
/** Enough bytes to tell every byte order mark the Encoding Standard knows. */
const BOM_BYTES = 3;
/** The `charset` parameter of a `Content-Type` value, as its label; undefined when there is none. */
function charsetOf(contentType) {
    return contentType === undefined ? undefined : (0,dist/* parse */.qg)(contentType).parameters.charset;
}
/** The encoding a byte order mark at the start of `bytes` names (Encoding Standard, "BOM sniff"). */
function bomEncoding(bytes) {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
        return 'utf-8';
    if (bytes[0] === 0xfe && bytes[1] === 0xff)
        return 'utf-16be';
    if (bytes[0] === 0xff && bytes[1] === 0xfe)
        return 'utf-16le';
    return undefined;
}
/** A decoder for `label`, or for UTF-8 when `TextDecoder` knows no such encoding. */
function decoderFor(label) {
    try {
        return new external_node_util_.TextDecoder(label ?? DEFAULT_LABEL);
    }
    catch {
        return new external_node_util_.TextDecoder(DEFAULT_LABEL);
    }
}
/**
 * Text from bytes that arrive in chunks: a character split between two chunks is decoded whole.
 * A byte order mark wins over the label, as browsers decode (no `<meta>` is read: the page is not
 * parsed as HTML); the mark itself is not part of the text.
 */
class PageTextDecoder {
    label;
    decoder;
    head = Buffer.alloc(0);
    constructor(label) {
        this.label = label;
    }
    /** The text `bytes` complete; bytes of a character not yet whole wait for the next chunk. */
    write(bytes) {
        if (this.decoder !== undefined)
            return this.decoder.decode(bytes, { stream: true });
        this.head = Buffer.concat([this.head, bytes]);
        if (this.head.length < BOM_BYTES)
            return '';
        return this.start().decode(this.head, { stream: true });
    }
    /** The rest of the text once the body has ended. */
    end() {
        if (this.decoder !== undefined)
            return this.decoder.decode();
        return this.start().decode(this.head);
    }
    start() {
        this.decoder = decoderFor(bomEncoding(this.head) ?? this.label);
        return this.decoder;
    }
}

;// CONCATENATED MODULE: ./src/http/probe.ts




/**
 * Pages are bigger than purge answers, and a version string may sit near the end of one, but a
 * hostile or runaway page (or a compression bomb) must not fill the runner's memory.
 */
const MAX_DECODED_BYTES = 4 * 1024 * 1024;
/** The variants visitors get: a CDN caches and purges each encoding's copy on its own. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** Whether any value of any header holds `text`. */
function headersShow(headers, text) {
    return Object.values(headers)
        .flat()
        .some((value) => value !== undefined && value.includes(text));
}
/**
 * Requests as the purge transport makes them (http/exchange.ts): node's own, which follows no
 * redirect and can be dropped as soon as the text is found, on the same agents.
 */
/** `guard`, the run's, hides its secrets in what a page says before anything cuts it. */
function createProber(options) {
    const agents = (0,http_agents/* createAgents */.j)(options);
    const headers = { 'User-Agent': options.userAgent, 'Accept-Encoding': ACCEPT_ENCODING };
    return {
        get(url, { timeoutMs, signal, lookFor }) {
            const request = { url, method: 'GET', headers, body: undefined, agents, timeoutMs, signal };
            return (0,exchange/* exchange */.c)(request, (response) => readPage(response, lookFor, options.guard));
        },
        close: agents.close
    };
}
/**
 * A page as the probe reads it: its codings undone, decoded in the charset its `Content-Type`
 * names, up to `MAX_DECODED_BYTES` decoded, and no further than `lookFor` once that shows. A coding
 * edge-purge cannot undo, or a header already showing `lookFor`, ends it before the body.
 */
function readPage(response, lookFor, guard) {
    const encoding = response.headers['content-encoding'];
    let body = '';
    const answer = (truncated, undecodable) => ({
        kind: 'response',
        status: response.statusCode ?? 0,
        headers: response.headers,
        body,
        truncated,
        ageLines: response.headersDistinct.age ?? [],
        undecodable
    });
    const codings = codingsOf(encoding, guard);
    if (codings.kind === 'refused')
        return answer(false, codings.reason);
    if (lookFor !== undefined && headersShow(response.headers, lookFor))
        return answer(false);
    const text = new PageTextDecoder(charsetOf(response.headers['content-type']));
    return {
        limit: MAX_DECODED_BYTES,
        decoding: {
            decoders: decodersFor(codings.codings),
            failure: (error) => `the ${String(encoding)} body could not be decoded: ${error.message}`
        },
        take(part) {
            // The text may straddle two chunks: search from where a match could begin.
            const from = lookFor === undefined ? 0 : Math.max(0, body.length - lookFor.length + 1);
            body += text.write(part);
            return lookFor !== undefined && body.includes(lookFor, from);
        },
        end() {
            body += text.end();
        },
        answer
    };
}
/**
 * At most `count` probes in flight across every origin (the agents bound each origin alone). A
 * stage takes a slot before it decides to start a check, so a check queued past its deadline is
 * not started at all; `task` is told whether it waited for its slot.
 */
class ProbeSlots {
    free;
    queue = [];
    constructor(count) {
        this.free = Math.max(1, count);
    }
    async run(task) {
        const queued = this.free === 0;
        if (queued)
            await new Promise((resolve) => this.queue.push(resolve));
        else
            this.free -= 1;
        try {
            return await task(queued);
        }
        finally {
            const next = this.queue.shift();
            if (next === undefined)
                this.free += 1;
            else
                next();
        }
    }
}


/***/ })

};
