export const id = 668;
export const ids = [668];
export const modules = {

/***/ 2668:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CHECK_INTERVAL_MS: () => (/* binding */ CHECK_INTERVAL_MS),
/* harmony export */   describeWaitPlanned: () => (/* binding */ describeWaitPlanned),
/* harmony export */   waitForOrigin: () => (/* binding */ waitForOrigin)
/* harmony export */ });
/* harmony import */ var node_events__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8474);
/* harmony import */ var node_events__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_events__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9373);
/* harmony import */ var _http_blocked_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1048);
/* harmony import */ var _record_failure_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5555);
/* harmony import */ var _http_observation_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(2510);
/* harmony import */ var _http_page_checks_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(1651);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(9366);
/* harmony import */ var _text_counted_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(4305);
/* harmony import */ var _text_shown_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(8482);
/**
 * The wait's work: before any purge call, check the origin until every URL shows the release (or
 * answers 2xx) enough times in a row, or the time is up. A purge sent before the origin serves the
 * new build lets the next visitor refill the cache with the old one.
 */









/** How often one URL is checked: often enough to purge soon after a deploy, rarely enough to be polite. */
const CHECK_INTERVAL_MS = 2000;
/** A page whose body cannot be decoded does not pass: visitors could not read it either. */
function passes(observation) {
    const { status, textSeen, undecodable } = observation;
    return (status !== null &&
        status >= 200 &&
        status < 300 &&
        undecodable === undefined &&
        textSeen !== false);
}
function describeAnswer(observation, text, guard) {
    if (observation.status === null)
        return observation.failure ?? 'no answer';
    if (observation.undecodable !== undefined) {
        return `HTTP ${observation.status}, ${observation.undecodable}`;
    }
    const seen = observation.textSeen ? 'showed' : 'did not show';
    return text === undefined
        ? `HTTP ${observation.status}`
        : `HTTP ${observation.status}, ${seen} ${(0,_text_shown_js__WEBPACK_IMPORTED_MODULE_7__/* .quoted */ .TL)(guard, text)}`;
}
/**
 * Why no purge call was sent, short enough to be every target's reason: how many URLs were not
 * ready and what they had to show. What each one answered is in the log and the summary.
 */
function describeFailure(settings, waiting, elapsedMs, guard) {
    const which = waiting.length === 1 && settings.urls.length === 1
        ? (0,_text_shown_js__WEBPACK_IMPORTED_MODULE_7__/* .shownUrl */ .zA)(guard, waiting[0]?.url ?? '')
        : `${waiting.length} of ${(0,_text_counted_js__WEBPACK_IMPORTED_MODULE_8__/* .counted */ .h)(settings.urls.length, 'wait-for-url')}`;
    // The time the wait took, in whole seconds as the wait-seconds output gives it.
    return {
        what: `the origin was not ready after ${Math.round(elapsedMs / 1000)} s`,
        detail: `${which} did not ${(0,_summary_js__WEBPACK_IMPORTED_MODULE_6__/* .awaited */ .QZ)(settings, guard)}`
    };
}
/** Why no purge call was sent when a proxy's refusal or a certificate problem ended the wait. */
function describeBlock({ what, fix }, guard) {
    const because = `the origin could not be checked because ${guard.oneLine(what)}`;
    return { what: because, detail: guard.oneLine(fix) };
}
/** In a dry run: what the wait would await; no request is sent. */
function describeWaitPlanned(wait, guard) {
    const what = wait.text === undefined
        ? 'answers 2xx'
        : `shows ${JSON.stringify(guard.oneLine(wait.text, 80))}`;
    return {
        sentence: `Would first wait until each of ${(0,_text_counted_js__WEBPACK_IMPORTED_MODULE_8__/* .counted */ .h)(wait.urls.length, 'URL')} ${what} ` +
            `(${(0,_text_counted_js__WEBPACK_IMPORTED_MODULE_8__/* .counted */ .h)(wait.passes, 'check')} in a row, up to ${wait.timeoutMs / 1000} s):`,
        urls: wait.urls,
        when: 'before'
    };
}
async function waitForOrigin(settings, { requestTimeoutMs, concurrency }, deps) {
    const { clock, log } = deps;
    const started = clock.now();
    const deadline = started + settings.timeoutMs;
    const urls = settings.urls.map((url) => ({
        url,
        checks: 0,
        passedInARow: 0,
        last: 'not checked'
    }));
    // A proxy's refusal or a certificate problem no retry gets past: no URL can pass behind it, and
    // no purge may go before every URL passed, so the first one ends the wait and every check in it.
    // The wait's own cancel is therefore aborted with the run's, or by the first block.
    const stop = new AbortController();
    // Every check in flight and every pause between checks listens: more than Node's default of 10.
    (0,node_events__WEBPACK_IMPORTED_MODULE_0__.setMaxListeners)(0, stop.signal);
    const abort = () => stop.abort();
    if (deps.signal.aborted)
        abort();
    const stopListening = (0,_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .onAbort */ .u7)(deps.signal, abort);
    let block;
    const onBlocked = (blocked) => {
        block ??= (0,_http_blocked_js__WEBPACK_IMPORTED_MODULE_2__/* .blockedWords */ .mq)(blocked);
        abort();
    };
    const check = checkOnce(settings, deadline, requestTimeoutMs, { ...deps, signal: stop.signal }, onBlocked);
    const title = `Waiting for the origin: ${(0,_text_counted_js__WEBPACK_IMPORTED_MODULE_8__/* .counted */ .h)(urls.length, 'URL')} to ${(0,_summary_js__WEBPACK_IMPORTED_MODULE_6__/* .awaited */ .QZ)(settings, deps.guard)} (up to ${settings.timeoutMs / 1000} s)`;
    return log.group(title, async () => {
        try {
            await (0,_http_page_checks_js__WEBPACK_IMPORTED_MODULE_5__/* .pollUntilDeadline */ ._K)(urls, check, { deadline, concurrency, clock, signal: stop.signal });
        }
        finally {
            stopListening();
        }
        return outcomeOf(urls, settings, clock.now() - started, block, deps);
    });
}
/**
 * One check of a URL, which returns when the next is due: every 2 s, and once more at the deadline
 * when the next check would come after it, so the wait uses all of its time; none once the URL
 * has passed often enough.
 */
function checkOnce(settings, deadline, requestTimeoutMs, { prober, clock, signal, log, guard }, onBlocked) {
    return async (state) => {
        const start = clock.now();
        const timeoutMs = (0,_http_page_checks_js__WEBPACK_IMPORTED_MODULE_5__/* .timeoutBefore */ .nY)(deadline, start, requestTimeoutMs);
        const answer = await (0,_http_page_checks_js__WEBPACK_IMPORTED_MODULE_5__/* .safeGet */ .yw)(prober, state.url, { timeoutMs, signal, lookFor: settings.text });
        if (answer.kind === 'cancelled')
            return undefined;
        const observation = (0,_http_observation_js__WEBPACK_IMPORTED_MODULE_4__/* .observe */ .l)(answer, settings.text, guard);
        state.checks += 1;
        state.passedInARow = passes(observation) ? state.passedInARow + 1 : 0;
        state.last = describeAnswer(observation, settings.text, guard);
        const mark = state.passedInARow > 0 ? '✓' : '✗';
        const row = settings.passes > 1 ? `; ${state.passedInARow} of ${settings.passes} in a row` : '';
        log.info(`${mark} ${(0,_text_shown_js__WEBPACK_IMPORTED_MODULE_7__/* .shownUrl */ .zA)(guard, state.url)}: ${state.last} (check ${state.checks}${row})`);
        if (answer.kind === 'blocked') {
            onBlocked(answer.blocked);
            return undefined;
        }
        if (state.passedInARow >= settings.passes)
            return undefined;
        const now = clock.now();
        const next = Math.max(start + CHECK_INTERVAL_MS, now);
        if (next <= deadline)
            return next;
        return now >= deadline ? undefined : deadline;
    };
}
/**
 * How the wait ended, told in the log: ready, cancelled, blocked, or which URLs were not ready and
 * why. `block` is the proxy's refusal or certificate problem that ended it at once, if one did.
 */
function outcomeOf(urls, settings, elapsedMs, block, { signal, log, guard }) {
    const cancelled = signal.aborted;
    const waiting = urls.filter((state) => state.passedInARow < settings.passes);
    const done = !cancelled && waiting.length === 0;
    const blocked = !cancelled && block !== undefined;
    const failure = done || cancelled
        ? undefined
        : block === undefined
            ? describeFailure(settings, waiting, elapsedMs, guard)
            : describeBlock(block, guard);
    const after = `${(elapsedMs / 1000).toFixed(1)} s`;
    log.info(failure === undefined
        ? cancelled
            ? `Wait cancelled after ${after}`
            : `The origin is ready after ${after}`
        : (0,_record_failure_js__WEBPACK_IMPORTED_MODULE_3__/* .reasonOf */ .A3)(failure));
    if (failure !== undefined) {
        for (const state of waiting)
            log.info((0,_summary_js__WEBPACK_IMPORTED_MODULE_6__/* .describeUrlWait */ .yE)(state, settings, guard));
    }
    return {
        done,
        cancelled,
        blocked,
        elapsedMs,
        urls: urls.map((state) => ({ ...state })),
        failure
    };
}


/***/ })

};
