export const id = 348;
export const ids = [348];
export const modules = {

/***/ 9348:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkEdge: () => (/* binding */ checkEdge)
});

// EXTERNAL MODULE: ./src/http/observation.ts
var http_observation = __webpack_require__(2510);
// EXTERNAL MODULE: ./src/http/page-checks.ts
var page_checks = __webpack_require__(1651);
// EXTERNAL MODULE: ./src/record/index.ts
var record = __webpack_require__(949);
// EXTERNAL MODULE: ./src/text/counted.ts
var counted = __webpack_require__(4305);
// EXTERNAL MODULE: ./src/text/shown.ts
var shown = __webpack_require__(8482);
;// CONCATENATED MODULE: ./src/stages/edge-check/freshness.ts

/** `HTTP 404, ` for answers other than 2xx: a fresh 404 or a 301 is worth a second look. */
function statusPrefix(status) {
    return status >= 200 && status < 300 ? '' : `HTTP ${status}, `;
}
function judge(observation, rule) {
    const { status, age, malformedAge, undecodable, cacheStatus, failure } = observation;
    const via = cacheStatus === undefined ? '' : ` (${cacheStatus})`;
    if (status === null) {
        return { fresh: false, evidence: failure ?? 'no answer' };
    }
    if (status >= 500)
        return { fresh: false, evidence: `HTTP ${status}${via}` };
    const prefix = statusPrefix(status);
    if (undecodable !== undefined) {
        return { fresh: false, evidence: `${prefix}${undecodable}${via}` };
    }
    if ('text' in rule) {
        const fresh = observation.textSeen === true;
        const evidence = `${prefix}${fresh ? 'showed' : 'did not show'} ${(0,shown/* quoted */.TL)(rule.text)}${via}`;
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
        : {
            fresh: false,
            evidence: `${prefix}Age ${age} s, but the purge began ${began}${via}`
        };
}

;// CONCATENATED MODULE: ./src/stages/edge-check/index.ts
/**
 * The edge check stage: after the purge, fetch each URL as a visitor would and judge whether the
 * edge now serves content produced after the purge began, re-checking stale ones for a while (a
 * soft purge serves the old copy once while it refetches; a CDN needs a moment to reach every POP).
 */






const FIRST_RECHECK_MS = 500;
const MAX_RECHECK_MS = 5000;
/** Wait before the re-check that follows check number `checks`: 0.5 s, 1 s, 2 s, 4 s, then 5 s. */
function recheckDelayMs(checks) {
    return Math.min(MAX_RECHECK_MS, FIRST_RECHECK_MS * 2 ** Math.max(0, checks - 1));
}
function entryOf(progress, cancelled) {
    const { target, checks, observation, judgement, final, late } = progress;
    const evidence = judgement === undefined
        ? late
            ? record/* NOT_CHECKED_IN_TIME */.qT
            : record/* NOT_JUDGED_CANCELLED */.wE
        : cancelled && !final
            ? `${judgement.evidence}; not checked again: the run was cancelled`
            : judgement.evidence;
    return {
        url: target.url,
        fresh: judgement?.fresh ?? false,
        http_status: observation?.status ?? null,
        age: observation?.age ?? null,
        checks,
        evidence
    };
}
async function checkEdge(settings, { requestTimeoutMs, concurrency }, deps) {
    const { clock, signal, log } = deps;
    const deadline = clock.now() + settings.timeoutMs;
    const progress = settings.targets.map((target) => ({
        target,
        checks: 0,
        observation: undefined,
        judgement: undefined,
        final: false,
        late: false
    }));
    const check = checkOnce(settings, deadline, requestTimeoutMs, deps);
    const seconds = `${settings.timeoutMs / 1000} s`;
    const title = `Edge check: ${(0,counted/* counted */.h)(progress.length, 'URL')} (up to ${concurrency} at once, stale ones re-checked; no check starts after ${seconds})`;
    return log.group(title, async () => {
        const tooLate = await (0,page_checks/* pollUntilDeadline */._K)(progress, check, {
            deadline,
            concurrency,
            clock,
            signal
        });
        for (const state of tooLate)
            state.late = state.checks === 0;
        return outcomeOf(progress, seconds, deps);
    });
}
/** One check of a URL, which returns when the re-check is due: none once it is fresh or no time is left. */
function checkOnce(settings, deadline, requestTimeoutMs, { prober, clock, signal, log }) {
    return async (state) => {
        // A first check keeps the full timeout, so its verdict never comes from a cut of ours; it still
        // ends within one timeout of the deadline. Re-checks share what is left, and the floor never
        // lifts one above `timeout` (below 1 s), which would break that bound.
        const timeoutMs = state.checks === 0 ? requestTimeoutMs : (0,page_checks/* timeoutBefore */.nY)(deadline, clock.now(), requestTimeoutMs);
        const { url, text } = state.target;
        const answer = await (0,page_checks/* safeGet */.yw)(prober, url, { timeoutMs, signal, lookFor: text });
        if (answer.kind === 'cancelled')
            return undefined;
        const observation = (0,http_observation/* observe */.l)(answer, text);
        const rule = text === undefined
            ? { purgeStartedMs: settings.purgeStartedMs, nowMs: clock.now() }
            : { text };
        const judgement = judge(observation, rule);
        state.checks += 1;
        state.observation = observation;
        state.judgement = judgement;
        const delay = recheckDelayMs(state.checks);
        const due = clock.now() + delay;
        state.final = judgement.fresh || due > deadline;
        log.info(describeCheck(state, delay));
        return state.final ? undefined : due;
    };
}
function describeCheck({ target, checks, observation, judgement, final }, delay) {
    const fresh = judgement?.fresh === true;
    const next = fresh
        ? ''
        : final
            ? '; no time left to check again'
            : `; checking again in ${delay / 1000} s`;
    const verdict = fresh ? '✓ fresh' : observation?.status === null ? '✗ unreachable' : '✗ stale';
    return `${verdict} ${(0,shown/* shownUrl */.zA)(target.url)}: ${judgement?.evidence ?? ''} (check ${checks}${next})`;
}
/** What the edge check found, told in the log in one line of counts. */
function outcomeOf(progress, seconds, { signal, log }) {
    const cancelled = signal.aborted;
    const entries = progress.map((state) => entryOf(state, cancelled));
    const late = progress.filter((state) => state.late).length;
    if (late > 0) {
        // One line, not one per URL: there may be a thousand.
        log.info(`${(0,counted/* counted */.h)(late, 'URL')} not checked within verify-timeout (${seconds}): raise verify-timeout or concurrency`);
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
