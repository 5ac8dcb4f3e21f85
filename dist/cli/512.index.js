export const id = 512;
export const ids = [512];
export const modules = {

/***/ 7512:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   filesOf: () => (/* binding */ filesOf)
/* harmony export */ });
/* harmony import */ var htmlparser2__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6963);
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
    const parser = new htmlparser2__WEBPACK_IMPORTED_MODULE_0__/* .Parser */ .i({
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


/***/ })

};
