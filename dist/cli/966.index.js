export const id = 966;
export const ids = [966];
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

/***/ 3966:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  applyChangedFiles: () => (/* binding */ applyChangedFiles)
});

// EXTERNAL MODULE: ./src/config/keys-and-urls.ts
var keys_and_urls = __webpack_require__(8143);
// EXTERNAL MODULE: ./src/capabilities/changed-files/summary.ts
var summary = __webpack_require__(7711);
// EXTERNAL MODULE: ./src/text/counted.ts
var counted = __webpack_require__(4305);
// EXTERNAL MODULE: ./src/github.ts
var src_github = __webpack_require__(9248);
// EXTERNAL MODULE: ./src/config/input-error.ts
var input_error = __webpack_require__(6065);
// EXTERNAL MODULE: ./src/text/shown.ts
var shown = __webpack_require__(8482);
;// CONCATENATED MODULE: ./src/capabilities/changed-files/range.ts
/**
 * Which commits a run's event asks to compare (push before...after, a release and the one before
 * it), and the range changed files are taken from once a comparison settles it. Pure.
 */


const ZERO_SHA = /^0+$/;
function range_text(value) {
    return typeof value === 'string' ? value : '';
}
/** Reads what the event itself says to compare; `changed-since` is applied by the caller. */
function eventRange(event) {
    const { payload } = event;
    if (event.eventName === 'push') {
        const before = range_text(payload.before);
        const after = range_text(payload.after) || event.sha;
        const ref = range_text(payload.ref);
        if (payload.deleted === true || ZERO_SHA.test(after))
            return { kind: 'deleted-branch', ref };
        if (before === '' || ZERO_SHA.test(before))
            return { kind: 'new-branch', head: after, ref };
        return { kind: 'push', base: before, head: after, ref, forced: payload.forced === true };
    }
    const release = releaseInfo(payload.release);
    if (event.eventName === 'release' && release !== undefined) {
        return { kind: 'release', head: event.sha || release.tagName, release };
    }
    return { kind: 'none', head: (0,src_github/* deployedCommit */.qd)(event) };
}
/** A release object from the event payload or the releases API. */
function releaseInfo(value) {
    if (typeof value !== 'object' || value === null)
        return undefined;
    const release = value;
    if (typeof release.id !== 'number' || typeof release.tag_name !== 'string')
        return undefined;
    return {
        id: release.id,
        tagName: release.tag_name,
        draft: release.draft === true,
        publishedAt: typeof release.published_at === 'string' ? release.published_at : null
    };
}
/**
 * The release published last before `current`: the one whose tag the site was deployed from when
 * each published release deploys. Drafts never deployed, so they are skipped; prereleases count,
 * since `release: published` runs for them too.
 */
function previousRelease(releases, current) {
    // A release event for a draft has no publication time yet: every published release is older.
    const cutoff = current.publishedAt === null ? Infinity : Date.parse(current.publishedAt);
    const published = (release) => release.publishedAt === null ? NaN : Date.parse(release.publishedAt);
    return releases
        .filter((release) => !release.draft &&
        release.id !== current.id &&
        release.tagName !== current.tagName &&
        published(release) < cutoff)
        .sort((a, b) => published(b) - published(a))[0];
}
/** A commit for messages: a full SHA shortened to 7 characters, a ref name as given. */
function shortRef(ref) {
    return /^[0-9a-f]{40}$/i.test(ref) ? ref.slice(0, 7) : ref;
}
/**
 * The comparison for logs: `push abc1234...def5678 (3 commits)`; from a purge mark, its label then
 * the head: `last complete purge of svc123: abc1234, run 41 → def5678 (3 commits)`.
 */
function describeRange({ origin, base, head, label }, commits) {
    const count = (0,counted/* counted */.h)(commits, 'commit');
    if (origin === 'record')
        return `${label ?? shortRef(base)} → ${shortRef(head)} (${count})`;
    const what = origin === 'release' && label !== undefined
        ? `release ${label}:`
        : origin === 'input'
            ? 'changed-since'
            : origin;
    return `${what} ${shortRef(base)}...${shortRef(head)} (${count})`;
}

// EXTERNAL MODULE: ./src/capabilities/changed-files/api-error.ts
var api_error = __webpack_require__(2708);
;// CONCATENATED MODULE: ./src/capabilities/changed-files/tree-difference.ts
/**
 * The files that differ between two commits, read from their whole trees: 2 calls, whatever the
 * number of commits between them or whether one contains the other. What a push of 300 files or
 * more and a base the head does not contain are both compared by.
 */




/** Paths added, removed or changed from `base`'s tree to `head`'s; a file changed back is not different. */
async function treeDifference(github, base, head, terms) {
    const before = await wholeTree(github, base, terms.baseUnknown, terms);
    const headUnknown = `GitHub does not know this run's commit ${shortRef(head)}`;
    const after = await wholeTree(github, head, headUnknown, terms);
    // A path only one tree has reads as undefined in the other, so it differs too.
    const paths = new Set([...before.keys(), ...after.keys()]);
    return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}
/**
 * A commit's files by path → content SHA. A tree GitHub lists only in part (over 100,000 entries
 * or 7 MB) fails: a file it left out would stay stale without anyone knowing.
 */
async function wholeTree(github, sha, unknown, { input, instead }) {
    const tree = await github.tree(sha).catch((error) => {
        const status = (0,src_github/* statusOf */.c2)(error);
        if (status === 404 || status === 409 || status === 422) {
            throw new input_error/* InputError */.d(`${input}: ${unknown} (${status}), so what changed since cannot be known; ${instead}`);
        }
        throw (0,api_error/* apiError */.p)(error, github, `read the tree of ${shortRef(sha)}`);
    });
    if (tree.truncated) {
        throw new input_error/* InputError */.d(`${input}: GitHub lists the tree of ${shortRef(sha)} only in part (over 100,000 entries or 7 MB), so the changed files cannot all be known; ${instead}`);
    }
    return new Map(tree.entries.map((entry) => [entry.path, entry.sha]));
}

;// CONCATENATED MODULE: ./src/capabilities/changed-files/range-files.ts
/**
 * The files a range changed, listed through the GitHub API: the comparison's own list when it is
 * whole, else the difference of the two commits' trees.
 */




/** GitHub lists at most this many files for a whole comparison; a list this long may be cut. */
const COMPARE_FILE_LIMIT = 300;
/** Compares `base...head`, reading the first page: files come only there. */
async function compare(github, base, head) {
    try {
        const page = await github.compare(base, head);
        if (page.status !== 'ahead' && page.status !== 'identical') {
            return { kind: 'unrelated', status: page.status };
        }
        return { kind: 'ancestor', page };
    }
    catch (error) {
        if ((0,src_github/* statusOf */.c2)(error) === 404)
            return { kind: 'unknown' };
        throw (0,api_error/* apiError */.p)(error, github, `compare ${shortRef(base)}...${shortRef(head)}`);
    }
}
/**
 * Whether a comparison's own file list holds every file it changed: GitHub lists at most 300, so a
 * list of 300 may be cut, and a missing list says nothing.
 */
function listsEveryFile(page) {
    return page.files !== undefined && page.files.length < COMPARE_FILE_LIMIT;
}
/**
 * The files a range changed, and how the log describes it. The comparison's own list is used when
 * it is shorter than 300 files; at 300 it may be cut, so the two commits' trees are compared
 * instead: 2 calls, however many commits the range holds (a call per commit would spend the
 * token's 1,000 calls an hour).
 */
async function filesOfRange(github, range) {
    const { base, head, origin, notes, comparison } = range;
    const { baseSha, totalCommits: commits } = comparison;
    const description = describeRange(range, commits);
    const described = { base, baseSha, head, source: origin, description, notes };
    if (listsEveryFile(comparison)) {
        return { files: sortedNames(comparison.files), commits, method: 'compare', ...described };
    }
    const files = await treeDifference(github, baseSha, head, {
        input: 'changed-files',
        baseUnknown: `GitHub does not know the base commit ${shortRef(baseSha)}`,
        instead: 'purge everything with mode: all'
    });
    return { files, commits, method: 'trees', ...described };
}
/** The paths of file entries, a rename under its old name and its new one, sorted, each once. */
function sortedNames(entries) {
    const names = entries.flatMap(({ filename, status, previous_filename }) => status === 'renamed' && previous_filename !== undefined
        ? [filename, previous_filename]
        : [filename]);
    return [...new Set(names)].sort();
}

;// CONCATENATED MODULE: ./src/capabilities/changed-files/choose-range.ts
/**
 * Which commits a run compares, chosen with GitHub's answers: the event's own range (a push's
 * before...after, a release against the release before it) or else changed-since, the base always
 * an ancestor of the head. `findChangedFiles` then lists the chosen range's files: the stage's call
 * for every changed-since but last-purge.
 */






/** Releases read to find the one before this run's: 10 pages of 100, newest first. */
const RELEASE_PAGES = 10;
/** Resolves the run's range, then lists the files it changed: the one call a run needs. */
async function findChangedFiles(github, changedSince, { log, guard }) {
    const range = await resolveRange(github, changedSince, guard);
    // No commit between base and head: GitHub compares them as identical.
    if (range.comparison.totalCommits === 0)
        log.warning(sameCommitWarning(range, guard));
    return filesOfRange(github, range);
}
/**
 * A range from a commit to itself lists no file, so nothing would be purged for it without a word:
 * typically `changed-since` naming the branch this run deploys, which already points at its head.
 */
function sameCommitWarning(range, guard) {
    const head = shortRef(range.head);
    if (range.origin === 'input') {
        return `changed-files: changed-since ${(0,shown/* shorten */.ml)(guard, range.base)} is the same commit as this run's ${head}, so comparing them finds no changed file and nothing is purged for changed files. Set changed-since to a commit before this deploy (the last one deployed), not to a branch this run has already moved`;
    }
    const base = range.origin === 'release'
        ? `the previous release ${range.base}`
        : `this push's before ${shortRef(range.base)}`;
    return `changed-files: ${base} is the same commit as ${head}, so comparing them finds no changed file and nothing is purged for changed files`;
}
/**
 * Which commits to compare. The event's own range comes first (`push`: `before...after`, the whole
 * push; `release`: the previous release's tag); `changed-since` is used when the event has none or
 * its base is unusable (a new branch, a force-push, a first release), and is required then. The
 * base must be an ancestor of the head: otherwise the comparison would start at their merge base
 * and miss files changed only on the base's side, so this fails instead.
 */
async function resolveRange(github, changedSince, guard) {
    const own = await ownRange(github);
    if (own.kind === 'usable') {
        if (changedSince === undefined)
            return own.range;
        const unused = `changed-since (${(0,shown/* shorten */.ml)(guard, changedSince)}) is used only when the event's own range cannot be, so it was not needed`;
        return { ...own.range, notes: [unused] };
    }
    const { eventName } = github.event;
    if (changedSince === undefined) {
        throw new input_error/* InputError */.d(own.kind === 'none'
            ? `changed-since is required for ${eventName === '' ? 'runs outside a workflow event' : `${eventName} events`}: the commits to compare are found automatically only for push (its before) and release (the previous release) events. ${HOW_TO_SET_CHANGED_SINCE}`
            : `changed-since: ${own.problem}. ${HOW_TO_SET_CHANGED_SINCE}`);
    }
    const problem = own.kind === 'unusable' ? own.problem : undefined;
    return fromChangedSince(github, changedSince, own.head, problem, guard);
}
const HOW_TO_SET_CHANGED_SINCE = 'Set changed-since to the commit, branch or tag the site was last deployed from, or purge everything with mode: all';
/**
 * The range the run's event names itself, checked against GitHub: a push's `before...after`, or a
 * release against the release published before it; usable when its base is an ancestor of its
 * head. Fails for a push that deleted its branch, which has no new commit to take files from.
 */
async function ownRange(github) {
    const own = eventRange(github.event);
    switch (own.kind) {
        case 'deleted-branch':
            throw new input_error/* InputError */.d(`changed-files: this push deleted ${own.ref || 'the branch'}; it has no new commit to take changed files from`);
        case 'push': {
            const comparison = await compare(github, own.base, own.head);
            if (comparison.kind === 'ancestor') {
                const range = { base: own.base, head: own.head, origin: 'push', notes: [] };
                return { kind: 'usable', range: { ...range, comparison: comparison.page } };
            }
            return { kind: 'unusable', head: own.head, problem: pushProblem(own, comparison) };
        }
        case 'new-branch':
            return {
                kind: 'unusable',
                head: own.head,
                problem: `this push created ${own.ref || 'the branch'} (its before is 0000000), so the branch has no earlier commit to compare against`
            };
        case 'release':
            return releaseRange(github, own.release, own.head);
        case 'none':
            return { kind: 'none', head: own.head };
    }
}
/** A release is compared against the release published before it. */
async function releaseRange(github, release, head) {
    const tag = release.tagName;
    const previous = await findPreviousRelease(github, release);
    if (previous === undefined) {
        const problem = `${tag} is the first published release, so there is no earlier release to compare against`;
        return { kind: 'unusable', head, problem };
    }
    const comparison = await compare(github, previous.tagName, head);
    if (comparison.kind === 'ancestor') {
        const range = { base: previous.tagName, head, origin: 'release', label: tag };
        return { kind: 'usable', range: { ...range, notes: [], comparison: comparison.page } };
    }
    const problem = comparison.kind === 'unknown'
        ? `the previous release's tag ${previous.tagName} is unknown to GitHub`
        : `the previous release ${previous.tagName} is not an ancestor of ${tag} (GitHub compares them as ${comparison.status})`;
    return { kind: 'unusable', head, problem };
}
/** The release published before `current`, among the newest 1,000 GitHub lists. */
async function findPreviousRelease(github, current) {
    const known = [];
    const visit = ({ items }) => {
        known.push(...items.flatMap((release) => releaseInfo(release) ?? []));
        return false;
    };
    try {
        await (0,src_github/* walkPages */.wZ)((page) => github.releases(page), RELEASE_PAGES, 'releases', visit);
    }
    catch (error) {
        throw (0,api_error/* apiError */.p)(error, github, 'list releases');
    }
    return previousRelease(known, current);
}
/** `changed-since...head`; `problem` says why the event's own range could not be used. */
async function fromChangedSince(github, changedSince, head, problem, guard) {
    const instead = `comparing against changed-since ${(0,shown/* shorten */.ml)(guard, changedSince)} instead`;
    const notes = problem === undefined ? [] : [`${capitalize(problem)}; ${instead}`];
    const comparison = await compare(github, changedSince, head);
    const why = problem === undefined ? '' : ` (needed because ${problem})`;
    if (comparison.kind === 'unknown') {
        throw new input_error/* InputError */.d(`changed-since: ${(0,shown/* shorten */.ml)(guard, changedSince)} is not a commit, branch or tag GitHub knows in ${github.owner}/${github.repo}${why}; give a full commit SHA, branch or tag, or use mode: all`);
    }
    if (comparison.kind === 'unrelated') {
        throw new input_error/* InputError */.d(`changed-since: ${(0,shown/* shorten */.ml)(guard, changedSince)} is not an ancestor of ${shortRef(head)} (GitHub compares them as ${comparison.status}), so files changed only on its side would be missed${why}; give a commit that ${shortRef(head)} contains, or use mode: all`);
    }
    return { base: changedSince, head, origin: 'input', notes, comparison: comparison.page };
}
function pushProblem({ base, head, forced }, comparison) {
    const push = forced ? 'this push was forced: its' : "this push's";
    if (comparison.kind === 'unknown') {
        return `${push} before ${shortRef(base)} is unknown to GitHub (a force-push can leave it unreachable), so the files the push replaced cannot be listed`;
    }
    const how = comparison.status === 'behind'
        ? `the push moved the branch back (GitHub compares them as behind)`
        : `GitHub compares them as ${comparison.status}`;
    return `${push} before ${shortRef(base)} is not an ancestor of its after ${shortRef(head)} (${how}), so the files the push replaced cannot be listed`;
}
function capitalize(sentence) {
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

;// CONCATENATED MODULE: ./src/capabilities/changed-files/derive.ts
const INDEX_FILE = 'index.html';
/**
 * The URLs and keys the changed files make stale, in the order of `files`, each target once (with
 * the first file that caused it). Every url-map line applies to every file under its prefix, so a
 * site served from two hosts is purged on both.
 */
function deriveTargets(files, urlMap, keyMap) {
    // Keyed by `type target`: a Map keeps the first file that caused each, in the order of `files`.
    const targets = new Map();
    const add = (type, target, file) => {
        const id = `${type} ${target}`;
        if (!targets.has(id))
            targets.set(id, { type, target, file });
    };
    for (const file of files) {
        for (const { pathPrefix, urlPrefix } of urlMap) {
            if (!file.startsWith(pathPrefix) || file.length === pathPrefix.length)
                continue;
            const rest = encodePath(file.slice(pathPrefix.length));
            // A directory URL serves its index.html, and is cached apart from it.
            if (rest === INDEX_FILE || rest.endsWith(`/${INDEX_FILE}`)) {
                add('url', urlPrefix + rest.slice(0, -INDEX_FILE.length), file);
            }
            add('url', urlPrefix + rest, file);
        }
        for (const { key, matches } of keyMap)
            if (matches(file))
                add('key', key, file);
    }
    return [...targets.values()];
}
/**
 * Percent-encodes each segment of a repository path as a URL path (RFC 3986 `pchar`), keeping `/`:
 * `a b#1.html` → `a%20b%231.html`. Sub-delimiters, `:` and `@` stay as browsers request them.
 */
function encodePath(path) {
    return path
        .split('/')
        .map((segment) => encodeURIComponent(segment).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (escape) => decodeURIComponent(escape)))
        .join('/');
}

;// CONCATENATED MODULE: ./src/capabilities/changed-files/since-last-purge.ts
/**
 * `changed-since: last-purge`: the files that differ between what each service was last purged for
 * completely and this run's head. A base the head contains is compared as a range; any other base
 * (history rewritten, a purge mark from another branch) by the two commits' whole trees, so files
 * only dropped commits changed are not missed.
 */





const HOW_TO_BEGIN = 'Begin the record with a run of mode: all and changed-since: last-purge (in the release workflow or a manual purge): its complete purge records where the site is fresh from';
/** One range per distinct base: services marked at the same commit share one comparison. */
async function changedSinceLastPurge(github, recalled, serviceIds, log) {
    const unmarked = serviceIds.filter((service) => !recalled.last.has(service));
    const byBase = new Map();
    for (const service of serviceIds) {
        const last = recalled.last.get(service);
        if (last === undefined)
            continue;
        const group = byBase.get(last.sha) ?? { last, services: [] };
        group.services.push(service);
        byBase.set(last.sha, group);
    }
    const ranges = [];
    if (unmarked.length > 0)
        ranges.push(await withoutMark(github, unmarked, log));
    for (const { last, services } of byBase.values()) {
        ranges.push(await sinceMark(github, last, services, recalled.head));
    }
    return ranges;
}
/** Services with no complete purge marked yet: the event's own range, when it has a usable one. */
async function withoutMark(github, services, log) {
    const names = services.join(', ');
    const own = await ownRange(github);
    if (own.kind !== 'usable') {
        const why = own.kind === 'unusable'
            ? own.problem
            : `this ${github.event.eventName || 'run'} event has no range of its own to compare`;
        throw new input_error/* InputError */.d(`changed-since: last-purge: no complete purge of ${names} is recorded yet, and ${why}. ${HOW_TO_BEGIN}`);
    }
    const what = own.range.origin === 'release' ? 'this release' : 'this push';
    log.notice(`No complete purge of ${names} is recorded yet: comparing ${what}'s own range. This run records one when its purge is complete`);
    return filesOfRange(github, own.range);
}
/** The files that differ between the marked commit and the head. */
async function sinceMark(github, last, services, head) {
    const names = services.join(', ');
    const run = last.runId === '' ? '' : `, run ${last.runId}`;
    const label = `last complete purge of ${names}: ${shortRef(last.sha)}${run}`;
    const comparison = await compare(github, last.sha, head);
    if (comparison.kind === 'ancestor' && listsEveryFile(comparison.page)) {
        const range = { base: last.sha, head, origin: 'record', label, notes: [] };
        return filesOfRange(github, { ...range, comparison: comparison.page });
    }
    const files = await treeDifference(github, last.sha, head, {
        input: 'changed-since: last-purge',
        baseUnknown: `the last complete purge of ${names} was for ${shortRef(last.sha)}, a commit GitHub no longer has`,
        instead: `purge everything with mode: all and changed-since: last-purge, which resets the record of ${names}`
    });
    // The log adds how the files were found ("from the two trees"); this says why.
    const how = comparison.kind === 'ancestor' ? '300 files or more' : 'not its ancestor';
    return {
        files,
        commits: undefined,
        method: 'trees',
        base: last.sha,
        baseSha: last.sha,
        head,
        source: 'record',
        description: `${label} → ${shortRef(head)} (${how})`,
        notes: []
    };
}

;// CONCATENATED MODULE: ./src/capabilities/changed-files/local-range.ts
/**
 * The command's changed files, read from the git repository it runs in: `--changed-since...HEAD`,
 * or a GitLab push's before...after. Git has none of GitHub's limits: no token, no 300-file list,
 * no page per commit.
 */




const PASS_CHANGED_SINCE = 'Pass --changed-since with the commit, branch or tag the site was last deployed from, or purge everything with mode: all';
const local_range_ZERO_SHA = /^0+$/;
/** The files the range changed, listed by `git diff --name-status -M`. */
async function localChangedFiles(open, changedSince, { log, guard, ...limits }) {
    const git = await open({ ...limits, guard });
    const range = chooseRange(git, changedSince, guard);
    const head = await git.commitOf(range.head);
    if (head === undefined) {
        throw new input_error/* InputError */.d(`changed-files: git knows no commit ${(0,shown/* shorten */.ml)(guard, range.head)} here`);
    }
    const baseSha = await git.commitOf(range.base);
    if (baseSha === undefined)
        throw new input_error/* InputError */.d(unknownBase(git, range));
    if (!(await git.isAncestor(baseSha, head))) {
        throw new input_error/* InputError */.d(`${range.named} is not an ancestor of ${shortRef(head)}, so files changed only on its side would be missed. ${PASS_CHANGED_SINCE}`);
    }
    const commits = await git.commitsBetween(baseSha, head);
    const compared = { ...range, head };
    if (commits === 0)
        log.warning(sameCommitWarning(compared, guard));
    return {
        files: await git.changedPaths(baseSha, head),
        commits,
        method: 'git',
        base: range.base,
        baseSha,
        head,
        source: range.origin,
        description: describeRange(compared, commits),
        notes: []
    };
}
/**
 * `--changed-since` when given, else a GitLab push's own range; a new branch has no commit before
 * it, and any other pipeline names none.
 */
function chooseRange(git, changedSince, guard) {
    if (changedSince !== undefined) {
        const named = `changed-since: ${(0,shown/* shorten */.ml)(guard, changedSince)}`;
        return { base: changedSince, head: 'HEAD', origin: 'input', named };
    }
    const { pipeline } = git;
    if (pipeline?.source !== 'push') {
        const where = pipeline === undefined
            ? 'outside a GitLab push pipeline'
            : `in a ${pipeline.system} pipeline started by ${(0,shown/* shorten */.ml)(guard, pipeline.source || 'an unnamed source')}`;
        throw new input_error/* InputError */.d(`changed-since is required ${where}: the commits to compare are found by themselves only in a GitLab push pipeline (CI_COMMIT_BEFORE_SHA...CI_COMMIT_SHA). ${PASS_CHANGED_SINCE}`);
    }
    if (local_range_ZERO_SHA.test(pipeline.before)) {
        throw new input_error/* InputError */.d(`changed-files: this push created its branch (CI_COMMIT_BEFORE_SHA is 0000000), so the branch has no earlier commit to compare against. ${PASS_CHANGED_SINCE}`);
    }
    const named = `changed-files: this push's before ${(0,shown/* shorten */.ml)(guard, shortRef(pipeline.before))} (CI_COMMIT_BEFORE_SHA)`;
    return { base: pipeline.before, head: pipeline.after || 'HEAD', origin: 'push', named };
}
/** A base git does not know: a shallow clone may simply not reach back to it. */
function unknownBase(git, range) {
    const what = `${range.named} is not a commit, branch or tag git knows in this repository`;
    if (!git.shallow)
        return `${what}. ${PASS_CHANGED_SINCE}`;
    return `${what}: the clone is shallow and may not reach back to it. Fetch more history (GitLab: GIT_DEPTH: 0; git fetch --unshallow), or ${PASS_CHANGED_SINCE.charAt(0).toLowerCase()}${PASS_CHANGED_SINCE.slice(1)}`;
}

;// CONCATENATED MODULE: ./src/capabilities/changed-files/apply.ts







/** How results find their source: the same `type target` key `withSources` looks up. */
const targetId = (type, target) => `${type} ${target}`;
/**
 * The keys and URLs given, then those derived from the changed files, and where each came from;
 * the log's changed-files group shows them.
 */
async function applyChangedFiles(settings, changed, deps) {
    const { recalled, log, guard } = deps;
    const services = settings.lastPurge?.serviceIds ?? [];
    const ranges = recalled !== undefined
        ? await changedSinceLastPurge(await deps.github(), recalled, services, log)
        : [await rangeOf(changed.changedSince, deps)];
    // Several ranges (services marked at different commits) make one report: their files united.
    const report = {
        files: [...new Set(ranges.flatMap((range) => range.files))].sort(),
        ranges,
        description: ranges.map((range) => range.description).join('; '),
        notes: ranges.flatMap((range) => range.notes)
    };
    for (const note of report.notes)
        log.notice(guard.oneLine(note, 1000));
    const targets = deriveTargets(report.files, changed.urlMap, changed.keyMap);
    const how = ranges.map((range) => `${guard.oneLine(range.description)} (${METHODS[range.method]})`);
    log.info(`${(0,counted/* counted */.h)(report.files.length, 'changed file')} in ${how.join('; ')} → ${(0,counted/* counted */.h)(targets.length, 'target')}`);
    const explicit = new Set([
        ...settings.keys.map((key) => targetId('key', key)),
        ...settings.urls.map((url) => targetId('url', url.target))
    ]);
    const sources = new Map();
    for (const { type, target, file } of targets) {
        if (!explicit.has(targetId(type, target)))
            sources.set(targetId(type, target), file);
    }
    // Derived targets pass the same checks as given ones: url-map prefixes are checked URLs and
    // key-map keys checked keys, but the joined URL is parsed again rather than trusted.
    const urls = targets
        .filter((derived) => derived.type === 'url')
        .map(({ target }) => (0,keys_and_urls/* purgeUrl */.JU)(target, 'url-map', guard));
    const keys = targets.filter((derived) => derived.type === 'key').map(({ target }) => target);
    const made = {
        keys: (0,keys_and_urls/* mergeUnique */.ch)([settings.keys, keys], (key) => key),
        urls: (0,keys_and_urls/* mergeUnique */.ch)([settings.urls, urls], (entry) => entry.address)
    };
    const derivation = { report, targets, sources };
    await (0,summary/* showDerivation */.n1)(derivation, made.keys.length + made.urls.length === 0, deps);
    return { part: { recalled, derivation }, made: { targets: made, sources } };
}
/** The one range of a run without `last-purge`: from local git when there is one, else GitHub. */
async function rangeOf(changedSince, deps) {
    const { localGit, limits, signal } = deps;
    if (localGit === undefined)
        return findChangedFiles(await deps.github(), changedSince, deps);
    const gitLimits = { timeoutMs: limits.requestTimeoutMs, signal };
    return localChangedFiles(localGit, changedSince, { ...deps, ...gitLimits });
}
const METHODS = {
    compare: 'from the comparison',
    trees: 'from the two trees',
    git: 'from git diff'
};


/***/ })

};
