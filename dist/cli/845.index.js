export const id = 845;
export const ids = [845,537];
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


/***/ }),

/***/ 2845:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   MARK_TASK: () => (/* binding */ MARK_TASK),
/* harmony export */   closeMarks: () => (/* binding */ closeMarks),
/* harmony export */   describeMarkPlanned: () => (/* binding */ describeMarkPlanned),
/* harmony export */   openMarks: () => (/* binding */ openMarks)
/* harmony export */ });
/* harmony import */ var _github_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9248);
/* harmony import */ var _text_cut_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3147);
/* harmony import */ var _recall_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1537);
/* harmony import */ var _text_message_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6400);




const MARK_TASK = 'edge-purge';
/** GitHub refuses deployment and status descriptions over 140 characters. */
const DESCRIPTION_CHARS = 140;
/** Makes each service's deployment for `head` and marks it `in_progress`. */
async function openMarks(github, settings, head, log) {
    const marks = [];
    const { runId, runUrl } = github.event;
    for (const service of settings.serviceIds) {
        try {
            const deploymentId = await github.createDeployment({
                sha: head,
                environment: (0,_recall_js__WEBPACK_IMPORTED_MODULE_1__.environmentOf)(service),
                task: MARK_TASK,
                description: (0,_text_cut_js__WEBPACK_IMPORTED_MODULE_2__/* .cut */ .J)(`edge-purge of ${service}`, DESCRIPTION_CHARS),
                payload: { run_id: runId }
            });
            await github.setDeploymentState(deploymentId, 'in_progress', {
                description: 'purging',
                logUrl: runUrl
            });
            marks.push({ service, sha: head, deploymentId, refusal: undefined });
        }
        catch (error) {
            // A refused call in a few words: the status and GitHub's message (the client hid any secret).
            const refusal = (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .answerOf */ .ut)(error, (0,_text_message_js__WEBPACK_IMPORTED_MODULE_3__/* .messageOf */ .b)(error));
            log.warning(`Could not record this purge of ${service} in ${(0,_recall_js__WEBPACK_IMPORTED_MODULE_1__.environmentOf)(service)} (${refusal}): the purge goes on, and the next run with changed-since: last-purge compares from the older record, which is safe${permissionHint(error)}`);
            marks.push({ service, sha: head, deploymentId: undefined, refusal });
        }
    }
    return marks;
}
/** Why a mark decided `success` says `failure` after all: the report it points to is missing. */
const REPORT_NOT_WRITTEN = 'the outputs or the job summary could not be written';
/**
 * Ends each purge mark as decided, once the report is written; `failure` after all when the
 * report could not be written. A status GitHub does not take costs a warning.
 */
async function closeMarks(github, marks, reported, log) {
    for (const mark of marks) {
        const { service, sha, deploymentId } = mark;
        if (deploymentId === undefined)
            continue;
        const { state, why } = mark.state === 'success' && !reported
            ? { state: 'failure', why: REPORT_NOT_WRITTEN }
            : mark;
        if (state === 'not written')
            continue;
        try {
            await github.setDeploymentState(deploymentId, state, {
                description: (0,_text_cut_js__WEBPACK_IMPORTED_MODULE_2__/* .cut */ .J)(state === 'success' ? 'complete' : why, DESCRIPTION_CHARS),
                logUrl: github.event.runUrl
            });
            log.info(state === 'success'
                ? `Recorded the complete purge of ${service} at ${sha}: the next run with changed-since: last-purge compares from it`
                : `Recorded this purge of ${service} as incomplete (${why}): the next run compares from the last complete purge again`);
        }
        catch (error) {
            log.warning(`Could not mark the record of ${service} as ${state} (${(0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .answerOf */ .ut)(error, (0,_text_message_js__WEBPACK_IMPORTED_MODULE_3__/* .messageOf */ .b)(error))}): it stays in_progress, so the next run with changed-since: last-purge compares from the older record, which is safe${permissionHint(error)}`);
        }
    }
}
/** The purge marks a dry run would have written. */
function describeMarkPlanned(settings) {
    const environments = settings.serviceIds.map(_recall_js__WEBPACK_IMPORTED_MODULE_1__.environmentOf).join(', ');
    return {
        sentence: `Would then record the purge as a deployment of ${environments}, marked success only if every target is purged and every checked page fresh: later runs with changed-since: last-purge compare from the last such record`,
        urls: [],
        when: 'end'
    };
}
/** The permission to grant, when GitHub's answer was a refusal a permission fixes. */
function permissionHint(error) {
    const status = (0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .statusOf */ .c2)(error);
    const refused = (status === 403 || status === 404) && !(0,_github_js__WEBPACK_IMPORTED_MODULE_0__/* .isRateLimited */ .Jz)(error);
    return refused ? `; ${_recall_js__WEBPACK_IMPORTED_MODULE_1__.DEPLOYMENTS_PERMISSION}` : '';
}


/***/ }),

/***/ 9248:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Jz: () => (/* binding */ isRateLimited),
/* harmony export */   M5: () => (/* binding */ isInTheWay),
/* harmony export */   c2: () => (/* binding */ statusOf),
/* harmony export */   qd: () => (/* binding */ deployedCommit),
/* harmony export */   ut: () => (/* binding */ answerOf),
/* harmony export */   wZ: () => (/* binding */ walkPages)
/* harmony export */ });
/* unused harmony export GitHubCallError */
/** A full commit SHA, as GitHub writes them. */
const FULL_SHA = /^[0-9a-f]{40}$/i;
/**
 * The commit a run deploys, which its purge marks name and its ranges end at. GITHUB_SHA is not
 * always it: on `workflow_run` it is the default branch's newest commit, which may be newer than
 * the one the triggering workflow built; on a pull request it is the merge commit GitHub makes for
 * the run, rebuilt on every push and soon forgotten, so the pull request's head is named instead.
 */
function deployedCommit(event) {
    const { payload } = event;
    if (event.eventName === 'workflow_run') {
        const ranOn = payload.workflow_run?.head_sha;
        // Only a full SHA goes into a purge mark: any other would be a base no later compare can use.
        return typeof ranOn === 'string' && FULL_SHA.test(ranOn) ? ranOn : event.sha;
    }
    const pullRequest = payload.pull_request;
    const head = pullRequest?.head?.sha;
    if (typeof head === 'string' && head !== '')
        return head;
    const after = payload.after;
    if (event.eventName === 'push' && typeof after === 'string' && after !== '')
        return after;
    return event.sha;
}
/**
 * A GitHub call that failed after its attempts: GitHub's status and message, or why no answer
 * came. `rateLimited` when GitHub refused it for a rate limit, which no permission fixes;
 * `inTheWay` when something between the runner and GitHub (a proxy, a certificate, a sign-in page)
 * failed it, which a re-run alone does not get past.
 */
class GitHubCallError extends Error {
    status;
    rateLimited;
    inTheWay;
    name = 'GitHubCallError';
    constructor(message, status, rateLimited, inTheWay = false) {
        super(message);
        this.status = status;
        this.rateLimited = rateLimited;
        this.inTheWay = inTheWay;
    }
}
/** The HTTP status a failed GitHub call answered, when it got an answer. */
function statusOf(error) {
    if (typeof error !== 'object' || error === null || !('status' in error))
        return undefined;
    return typeof error.status === 'number' ? error.status : undefined;
}
/** What GitHub answered a failed call: its status and message, or why no answer came. */
function answerOf(error, message) {
    const status = statusOf(error);
    return status === undefined || isRateLimited(error) ? message : `${status}: ${message}`;
}
/** Whether the call failed on something in the way of GitHub, to fix before a re-run can pass. */
function isInTheWay(error) {
    return error instanceof GitHubCallError && error.inTheWay;
}
/** Whether GitHub refused the call for a rate limit: its 403 is then no missing permission. */
function isRateLimited(error) {
    return error instanceof GitHubCallError && error.rateLimited;
}
/**
 * Reads page 1 and each page GitHub names next, handing each to `visit` until it returns true.
 * A `Link` that names a page already read ends the walk; a walk that would read more than
 * `mostPages` fails, so a list that never ends is neither followed for ever nor taken as whole.
 */
async function walkPages(read, mostPages, what, visit) {
    const pagesRead = new Set();
    for (let page = 1; page !== undefined && !pagesRead.has(page);) {
        if (pagesRead.size === mostPages) {
            throw new Error(`GitHub names more than ${mostPages} pages of ${what}, more than a run reads`);
        }
        pagesRead.add(page);
        const answer = await read(page);
        if (await visit(answer))
            return;
        page = answer.nextPage;
    }
}


/***/ })

};
