export const id = 814;
export const ids = [814,187];
export const modules = {

/***/ 2510:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ saysHit),
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
/** RFC 9211: a cache that served the answer lists the `hit` parameter. */
const CACHE_STATUS_HIT = /;\s*hit\s*(?=;|,|$)/i;
/**
 * Whether a cache status header says a cache served the answer: `Cache-Status` by its `hit`
 * parameter, the vendors' headers by a value holding `HIT`, in any case.
 */
function saysHit(headers) {
    return CACHE_STATUS_HEADERS.some((name) => {
        const value = (0,_retry_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .headerValue */ .Z)(headers, name.toLowerCase());
        if (value === undefined)
            return false;
        return name === 'Cache-Status' ? CACHE_STATUS_HIT.test(value) : /hit/i.test(value);
    });
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


/***/ }),

/***/ 2372:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   qg: () => (/* binding */ parse)
/* harmony export */ });
/* unused harmony exports isTypeValid, isTokenValid, format */
/*!
 * content-type
 * Copyright(c) 2015 Douglas Christopher Wilson
 * MIT Licensed
 */
const SP = 32; // " "
const HTAB = 9; // "\t"
const SEMI = 59; // ";"
const EQ = 61; // "="
const DQUOTE = 34; // '"'
const BSLASH = 92; // "\\"
const COMMA = 44; // ","
const LOWER_CASE = 1;
const OWS = 2;
const SEMI_FLAG = 4;
const COMMA_FLAG = 8;
const TOKEN_FLAG = 16;
const NON_ASCII = 0xff00;
const CASE_FLAGS = LOWER_CASE | NON_ASCII;
/**
 * Character flags used to normalize HTTP field values while scanning.
 * Out-of-range reads intentionally coerce to zero in bitwise expressions.
 */
const CHAR_MAP = new Uint8Array(0x100);
CHAR_MAP[HTAB] |= OWS;
CHAR_MAP[SP] |= OWS;
CHAR_MAP[SEMI] |= SEMI_FLAG;
CHAR_MAP[COMMA] |= COMMA_FLAG;
for (let code = 0x80 /* non-ASCII */; code <= 0xff; code++) {
    CHAR_MAP[code] |= LOWER_CASE;
}
for (const char of "!#$%&'*+-.^_`|~") {
    CHAR_MAP[char.charCodeAt(0)] |= TOKEN_FLAG;
}
for (let code = 0x30 /* 0 */; code <= 0x39 /* 9 */; code++) {
    CHAR_MAP[code] |= TOKEN_FLAG;
}
for (let code = 0x41 /* A */; code <= 0x5a /* Z */; code++) {
    CHAR_MAP[code] |= LOWER_CASE | TOKEN_FLAG;
}
for (let code = 0x61 /* a */; code <= 0x7a /* z */; code++) {
    CHAR_MAP[code] |= TOKEN_FLAG;
}
/**
 * Null object perf optimization. Faster than `Object.create(null)` and `{ __proto__: null }`.
 */
const NullObject = /* @__PURE__ */ (() => {
    const C = function () { };
    C.prototype = Object.create(null);
    return C;
})();
/**
 * Validate a type string against RFC 9110.
 */
function isTypeValid(type, start = 0, end = type.length) {
    let hasSlash = false;
    for (let index = start; index < end; index++) {
        const code = type.charCodeAt(index);
        if (code === 47 /* / */) {
            if (hasSlash || index === start || index >= end - 1)
                return false;
            hasSlash = true;
        }
        else if (!isTokenCode(code)) {
            return false;
        }
    }
    return hasSlash;
}
/**
 * Validate a token against RFC 9110.
 */
function isTokenValid(token, start = 0, end = token.length) {
    if (start >= end)
        return false;
    for (let index = start; index < end; index++) {
        if (!isTokenCode(token.charCodeAt(index)))
            return false;
    }
    return true;
}
/**
 * Check whether a character code belongs to the token production in RFC 9110.
 */
function isTokenCode(code) {
    return (CHAR_MAP[code] & TOKEN_FLAG) !== 0;
}
/**
 * Serialize a parameter value.
 */
function parameterValue(str) {
    const len = str.length;
    if (len === 0)
        return '""';
    let index = 0;
    while (index < len && isTokenCode(str.charCodeAt(index)))
        index++;
    if (index === len)
        return str;
    let result = '"';
    let start = 0;
    while (index < len) {
        const code = str.charCodeAt(index);
        if (code !== HTAB && (code < SP || code === 127 || code > 255)) {
            throw new TypeError(`Invalid parameter value: ${str}`);
        }
        if (code === 34 /* " */ || code === 92 /* \\ */) {
            result += `${str.slice(start, index)}\\`;
            start = index;
        }
        index++;
    }
    return `${result}${str.slice(start)}"`;
}
/**
 * Format an object into a `Content-Type` header.
 */
function format(obj) {
    const { type, parameters } = obj;
    if (!type || !isTypeValid(type)) {
        throw new TypeError(`Invalid type: ${type}`);
    }
    let result = type;
    if (parameters) {
        for (const param of Object.keys(parameters)) {
            if (!isTokenValid(param)) {
                throw new TypeError(`Invalid parameter name: ${param}`);
            }
            result += `; ${param}=${parameterValue(parameters[param])}`;
        }
    }
    return result;
}
/**
 * Parse a `Content-Type` header.
 */
function parse(header, options) {
    const stopFlags = SEMI_FLAG | (options?.comma === true ? COMMA_FLAG : 0);
    const len = header.length;
    let valueStart = options?.start ?? 0;
    while ((CHAR_MAP[header.charCodeAt(valueStart)] & OWS) !== 0) {
        valueStart++;
    }
    let index = valueStart;
    let typeFlags = 0;
    let whitespace = -1;
    let stop = options?.parameters === false ? COMMA_FLAG : 0;
    while (index < len) {
        const code = header.charCodeAt(index);
        const flags = CHAR_MAP[code];
        if ((flags & stopFlags) !== 0) {
            stop |= flags & COMMA_FLAG;
            break;
        }
        if ((flags & OWS) !== 0) {
            if (whitespace === -1)
                whitespace = index;
        }
        else {
            whitespace = -1;
        }
        typeFlags |= (code & NON_ASCII) | flags;
        index++;
    }
    const valueEnd = whitespace === -1 ? index : whitespace;
    const value = header.slice(valueStart, valueEnd);
    const type = (typeFlags & CASE_FLAGS) === 0 ? value : value.toLowerCase();
    if (index === len || stop !== 0) {
        return { type, index, parameters: new NullObject() };
    }
    return parseParameters(header, type, index, len, stopFlags);
}
/**
 * Parses the parameters of a `Content-Type` header starting at the given index.
 */
function parseParameters(header, type, index, len, stopFlags) {
    const parameters = new NullObject();
    parameter: while (index < len) {
        index++; // Skip over ;
        while ((CHAR_MAP[header.charCodeAt(index)] & OWS) !== 0) {
            index++;
        }
        const keyStart = index;
        let keyFlags = 0;
        let keyWhitespace = -1;
        while (index < len) {
            const code = header.charCodeAt(index);
            const flags = CHAR_MAP[code];
            if ((flags & stopFlags) !== 0) {
                if ((flags & COMMA_FLAG) !== 0)
                    break parameter;
                continue parameter;
            }
            if (code === EQ) {
                const keyEnd = keyWhitespace === -1 ? index : keyWhitespace;
                const value = header.slice(keyStart, keyEnd);
                const key = (keyFlags & CASE_FLAGS) === 0 ? value : value.toLowerCase();
                index++;
                while ((CHAR_MAP[header.charCodeAt(index)] & OWS) !== 0) {
                    index++;
                }
                if (index < len && header.charCodeAt(index) === DQUOTE) {
                    const quotedStart = ++index;
                    let escaped = false;
                    while (index < len) {
                        const code = header.charCodeAt(index);
                        if (code === DQUOTE) {
                            if (parameters[key] === undefined) {
                                parameters[key] = escaped
                                    ? unescapeQuotedPairs(header, quotedStart, index)
                                    : header.slice(quotedStart, index);
                            }
                            index++;
                            let stop = 0;
                            // Discard characters between quote and delimiter.
                            while (index < len) {
                                const code = header.charCodeAt(index);
                                const flags = CHAR_MAP[code];
                                if ((flags & stopFlags) !== 0) {
                                    stop = flags & COMMA_FLAG;
                                    break;
                                }
                                index++;
                            }
                            if (stop !== 0)
                                break parameter;
                            continue parameter;
                        }
                        if (code === BSLASH && index + 1 < len) {
                            escaped = true;
                            index += 2;
                            continue;
                        }
                        index++;
                    }
                    continue parameter;
                }
                const valueStart = index;
                let stop = 0;
                let valueWhitespace = -1;
                while (index < len) {
                    const code = header.charCodeAt(index);
                    const flags = CHAR_MAP[code];
                    if ((flags & stopFlags) !== 0) {
                        stop = flags & COMMA_FLAG;
                        break;
                    }
                    if ((flags & OWS) !== 0) {
                        if (valueWhitespace === -1)
                            valueWhitespace = index;
                    }
                    else {
                        valueWhitespace = -1;
                    }
                    index++;
                }
                if (parameters[key] === undefined) {
                    const valueEnd = valueWhitespace === -1 ? index : valueWhitespace;
                    parameters[key] = header.slice(valueStart, valueEnd);
                }
                if (stop !== 0)
                    break parameter;
                continue parameter;
            }
            if ((flags & OWS) !== 0) {
                if (keyWhitespace === -1)
                    keyWhitespace = index;
            }
            else {
                keyWhitespace = -1;
            }
            keyFlags |= (code & NON_ASCII) | flags;
            index++;
        }
    }
    return { type, index, parameters };
}
/**
 * Remove backslashes from quoted pairs in a known-terminated quoted string body.
 */
function unescapeQuotedPairs(str, start, end) {
    let result = "";
    for (let index = start; index < end; index++) {
        if (str.charCodeAt(index) === BSLASH) {
            result += str.slice(start, index);
            start = ++index;
        }
    }
    return result + str.slice(start, end);
}
//# sourceMappingURL=index.js.map

/***/ })

};
