export const id = 537;
export const ids = [537];
export const modules = {

/***/ 2708:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   p: () => (/* binding */ apiError)
/* harmony export */ });
/* harmony import */ var _github_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9248);
/* harmony import */ var _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6065);
/* harmony import */ var _text_message_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6400);
/** How any changed-files call to GitHub fails: one message naming what was attempted. */



/**
 * An API failure as a message naming what was attempted; a refused token is the user's to fix.
 * The GitHub client has already hidden the run's secrets in GitHub's words.
 */
function apiError(error, github, what) {
    const status = (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .statusOf */ .c2)(error);
    const reason = (0,_text_message_js__WEBPACK_IMPORTED_MODULE_1__/* .messageOf */ .b)(error);
    const repository = `${github.owner}/${github.repo}`;
    if (status === 401) {
        return new _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d(`github-token: GitHub rejected the token (401: ${reason})`);
    }
    if (status === 403 && !(0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .isRateLimited */ .Jz)(error)) {
        return new _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d(`github-token: GitHub refused to ${what} in ${repository} (403: ${reason}); the token needs contents: read`);
    }
    return new Error(`GitHub API: could not ${what} in ${repository}: ${(0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .answerOf */ .ut)(error, reason)}`);
}


/***/ }),

/***/ 1537:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DEPLOYMENTS_PERMISSION: () => (/* binding */ DEPLOYMENTS_PERMISSION),
/* harmony export */   environmentOf: () => (/* binding */ environmentOf),
/* harmony export */   recallLastPurges: () => (/* binding */ recallLastPurges)
/* harmony export */ });
/* harmony import */ var _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6065);
/* harmony import */ var _github_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9248);
/* harmony import */ var _text_message_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6400);
/* harmony import */ var _api_error_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2708);




/** The deployments looked at before giving up: a long run of failures means something else is wrong. */
const MOST_DEPLOYMENTS = 200;
/** Pages of 100 deployments: enough to reach the one past MOST_DEPLOYMENTS. */
const DEPLOYMENT_PAGES = 3;
/** The environment that holds a service's purge marks. */
const environmentOf = (service) => `edge-purge/${service}`;
/** What a failed read or write of the purge marks tells the user to grant. */
const DEPLOYMENTS_PERMISSION = 'the job needs permissions: deployments: write (besides contents: read)';
/**
 * What the run starts from. With changed-files off (`mode: all`), nothing is read: the purge
 * covers everything, and its purge mark starts or resets the history.
 */
async function recallLastPurges(github, settings, readMarks, log) {
    const head = (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .deployedCommit */ .qd)(github.event);
    const last = new Map();
    if (!readMarks)
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
    let found;
    try {
        await (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .walkPages */ .wZ)((page) => github.deployments(environment, page), DEPLOYMENT_PAGES, `the deployments of ${environment}`, async ({ items }) => {
            for (const deployment of items) {
                seen += 1;
                if (seen > MOST_DEPLOYMENTS)
                    throw tooManyFailures(service);
                if ((await github.latestDeploymentState(deployment.id)) === 'success') {
                    const runId = runIdOf(deployment.payload);
                    found = { sha: deployment.sha, runId, deploymentId: deployment.id };
                    return true;
                }
            }
            return false;
        });
    }
    catch (error) {
        if (error instanceof _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d)
            throw error;
        throw readRefused(error, github, environment);
    }
    return found;
}
function tooManyFailures(service) {
    return new _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d(`changed-since: last-purge: none of the newest ${MOST_DEPLOYMENTS} deployments of ${environmentOf(service)} records a complete purge, so the base cannot be known. Reset the record with a run of mode: all and changed-since: last-purge, or delete the environment's old deployments`);
}
/** The run id a purge mark's payload names; only digits are trusted, anything else is left out. */
function runIdOf(payload) {
    if (typeof payload !== 'object' || payload === null)
        return '';
    const id = payload.run_id;
    const text = typeof id === 'number' ? String(id) : id;
    return typeof text === 'string' && /^\d{1,20}$/.test(text) ? text : '';
}
/**
 * A failed read of the purge marks: a refusal a permission fixes names it; a rejected token, and
 * GitHub's answer to any other failure, are told as for every changed-files call, then why no
 * purge was sent.
 */
function readRefused(error, github, environment) {
    const status = (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .statusOf */ .c2)(error);
    const what = `read the deployments of ${environment}`;
    if ((status === 403 || status === 404) && !(0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .isRateLimited */ .Jz)(error)) {
        return new _config_input_error_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d(`changed-since: last-purge: GitHub refused to ${what} in ${github.owner}/${github.repo} (${status}: ${(0,_text_message_js__WEBPACK_IMPORTED_MODULE_3__/* .messageOf */ .b)(error)}); ${DEPLOYMENTS_PERMISSION}. Nothing was purged`);
    }
    const failure = (0,_api_error_js__WEBPACK_IMPORTED_MODULE_1__/* .apiError */ .p)(error, github, what);
    if (status === 401)
        return failure;
    // A proxy, a certificate or a sign-in page is fixed first: GitHub answering again would not help.
    const rerun = (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .isInTheWay */ .M5)(error) ? '' : '; re-run the job once GitHub answers again';
    return new Error(`${failure.message}. Nothing was purged: the run needs the record to know what changed${rerun}`);
}


/***/ })

};
