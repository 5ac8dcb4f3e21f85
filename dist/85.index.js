export const id = 85;
export const ids = [85];
export const modules = {

/***/ 9248:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   c: () => (/* binding */ statusOf)
/* harmony export */ });
/** The GitHub API as the stages see it: plain answers, handed in by the runner door, which alone knows Octokit. */
/** The HTTP status a failed GitHub call answered, when it got an answer. */
function statusOf(error) {
    if (typeof error !== 'object' || error === null || !('status' in error))
        return undefined;
    return typeof error.status === 'number' ? error.status : undefined;
}


/***/ }),

/***/ 85:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DEPLOYMENTS_PERMISSION: () => (/* binding */ DEPLOYMENTS_PERMISSION),
/* harmony export */   MOST_DEPLOYMENTS: () => (/* binding */ MOST_DEPLOYMENTS),
/* harmony export */   environmentOf: () => (/* binding */ environmentOf),
/* harmony export */   purgedCommit: () => (/* binding */ purgedCommit),
/* harmony export */   recallLastPurges: () => (/* binding */ recallLastPurges)
/* harmony export */ });
/* harmony import */ var _config_targets_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5684);
/* harmony import */ var _github_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9248);
/* harmony import */ var _text_guard_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2963);
/* harmony import */ var _text_message_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6400);




/** The deployments looked at before giving up: a long run of failures means something else is wrong. */
const MOST_DEPLOYMENTS = 200;
/** The environment that holds a service's records. */
const environmentOf = (service) => `edge-purge/${service}`;
/** What a failed read or write of the records tells the user to grant. */
const DEPLOYMENTS_PERMISSION = 'the job needs permissions: deployments: write (besides contents: read)';
/**
 * The commit a run purges for, which its record names: a pull request's head, not the merge
 * commit GitHub makes for the run (that commit is rebuilt on every push and soon forgotten).
 */
function purgedCommit(event) {
    const pullRequest = event.payload.pull_request;
    const head = pullRequest?.head?.sha;
    if (typeof head === 'string' && head !== '')
        return head;
    const after = event.payload.after;
    if (event.eventName === 'push' && typeof after === 'string' && after !== '')
        return after;
    return event.sha;
}
/**
 * What the run starts from. With changed-files off (`mode: all`), nothing is read: the purge
 * covers everything, and its record starts or resets the history.
 */
async function recallLastPurges(github, settings, readRecords, log) {
    const head = purgedCommit(github.event);
    const last = new Map();
    if (!readRecords)
        return { head, last };
    for (const service of settings.serviceIds) {
        const found = await lastCompletePurge(github, service);
        if (found === undefined) {
            log.info(`No complete purge of ${service} is recorded in ${environmentOf(service)}`);
            continue;
        }
        const run = found.runId === '' ? '' : ` by run ${found.runId}`;
        log.info(`Last complete purge of ${service}: ${found.sha}${run} (deployment ${found.deploymentId} of ${environmentOf(service)})`);
        last.set(service, found);
    }
    return { head, last };
}
async function lastCompletePurge(github, service) {
    const environment = environmentOf(service);
    let seen = 0;
    try {
        for (let page = 1;; page += 1) {
            const { deployments, hasNextPage } = await github.deployments(environment, page);
            for (const deployment of deployments) {
                seen += 1;
                if (seen > MOST_DEPLOYMENTS)
                    throw tooManyFailures(service);
                if ((await github.latestDeploymentState(deployment.id)) === 'success') {
                    return {
                        sha: deployment.sha,
                        runId: runIdOf(deployment.payload),
                        deploymentId: deployment.id
                    };
                }
            }
            if (!hasNextPage)
                return undefined;
        }
    }
    catch (error) {
        if (error instanceof _config_targets_js__WEBPACK_IMPORTED_MODULE_0__/* .InputError */ .dz)
            throw error;
        throw readRefused(error, github, environment);
    }
}
function tooManyFailures(service) {
    return new _config_targets_js__WEBPACK_IMPORTED_MODULE_0__/* .InputError */ .dz(`changed-since: last-purge: none of the newest ${MOST_DEPLOYMENTS} deployments of ${environmentOf(service)} records a complete purge, so the base cannot be known. Reset the record with a run of mode: all and changed-since: last-purge, or delete the environment's old deployments`);
}
/** The run id a record's payload names; only digits are trusted, anything else is left out. */
function runIdOf(payload) {
    if (typeof payload !== 'object' || payload === null)
        return '';
    const id = payload.run_id;
    const text = typeof id === 'number' ? String(id) : id;
    return typeof text === 'string' && /^\d{1,20}$/.test(text) ? text : '';
}
function readRefused(error, github, environment) {
    const status = (0,_github_js__WEBPACK_IMPORTED_MODULE_2__/* .statusOf */ .c)(error);
    const reason = (0,_text_guard_js__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)((0,_text_message_js__WEBPACK_IMPORTED_MODULE_3__/* .messageOf */ .b)(error));
    const where = `the deployments of ${environment} in ${github.owner}/${github.repo}`;
    if (status === 401) {
        return new _config_targets_js__WEBPACK_IMPORTED_MODULE_0__/* .InputError */ .dz(`github-token: GitHub rejected the token (401: ${reason})`);
    }
    if (status === 403 || status === 404) {
        return new _config_targets_js__WEBPACK_IMPORTED_MODULE_0__/* .InputError */ .dz(`changed-since: last-purge: GitHub refused to read ${where} (${status}: ${reason}); ${DEPLOYMENTS_PERMISSION}. Nothing was purged`);
    }
    return new Error(`GitHub API: could not read ${where}: ${reason}`);
}


/***/ })

};
