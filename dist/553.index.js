export const id = 553;
export const ids = [553];
export const modules = {

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
