/** The files a page loads, read from its HTML (issue 39, step 1): what is found, and where it points. */
import { describe, expect, it } from '@jest/globals'
import { filesOf } from '../../../../src/capabilities/edge-check/assets/extract.js'

const PAGE = 'https://www.example.com/blog/post/'

/** A URL on the page's origin. */
const own = (path: string): string => `https://www.example.com${path}`

/** The files on the page's origin that `html` loads. */
const files = (html: string, page = PAGE): string[] => filesOf(html, page).files

describe('filesOf: what is collected', () => {
  it('collects each loading element kind, in document order', () => {
    const html = `<!doctype html><html><head>
      <link rel="stylesheet" href="/site.css">
      <link rel="modulepreload" href="/app.mjs">
      <link rel="preload" as="font" href="/font.woff2">
      <link rel="icon" href="/favicon.png">
      <link rel="shortcut icon" href="/favicon.ico">
      <link rel="manifest" href="/site.webmanifest">
      <script src="/app.js"></script>
    </head><body>
      <img src="/hero.jpg" srcset="/hero-2x.jpg 2x">
      <picture><source srcset="/hero.avif"><img src="/hero.png"></picture>
      <video poster="/poster.jpg"></video>
    </body></html>`
    expect(filesOf(html, PAGE)).toEqual({
      files: [
        '/site.css',
        '/app.mjs',
        '/font.woff2',
        '/favicon.png',
        '/favicon.ico',
        '/site.webmanifest',
        '/app.js',
        '/hero.jpg',
        '/hero-2x.jpg',
        '/hero.avif',
        '/hero.png',
        '/poster.jpg'
      ].map(own),
      otherHost: []
    })
  })

  it('leaves out what a page links to or fetches only on demand', () => {
    const html = `
      <link rel="canonical" href="/canonical">
      <link rel="alternate" href="/feed.xml">
      <link rel="prefetch" href="/next.js">
      <link rel="dns-prefetch" href="//cdn.example.net">
      <link rel="apple-touch-icon" href="/touch.png">
      <link href="/no-rel.css">
      <link rel="stylesheet">
      <a href="/about/">About</a>
      <script>inline()</script>
      <img alt="no source">
      <video src="/movie.mp4"><source src="/movie.webm"></video>
      <iframe src="/frame.html"></iframe>
      <div src="/div.png" poster="/div-poster.png" srcset="/div-set.png"></div>`
    expect(filesOf(html, PAGE)).toEqual({ files: [], otherHost: [] })
  })

  it('finds nothing in an empty document or one that loads nothing', () => {
    expect(filesOf('', PAGE)).toEqual({ files: [], otherHost: [] })
    expect(filesOf('<p>Just text.</p>', PAGE)).toEqual({ files: [], otherHost: [] })
  })
})

describe('filesOf: srcset', () => {
  it('takes every candidate, whatever its descriptor', () => {
    expect(files('<img srcset="/a.jpg 1x, /b.jpg 1.5x, /c.jpg 2x">')).toEqual(
      ['/a.jpg', '/b.jpg', '/c.jpg'].map(own)
    )
    expect(files('<img srcset="/s.jpg 480w, /m.jpg 800w, /l.jpg">')).toEqual(
      ['/s.jpg', '/m.jpg', '/l.jpg'].map(own)
    )
  })

  it('keeps commas inside a URL: only whitespace ends one', () => {
    expect(files('<img srcset="/img/w_100,h_50/a.jpg 100w, /img/w_200,h_100/a.jpg 200w">')).toEqual(
      ['/img/w_100,h_50/a.jpg', '/img/w_200,h_100/a.jpg'].map(own)
    )
    expect(files('<img srcset="/a.jpg,/b.jpg">')).toEqual([own('/a.jpg,/b.jpg')])
  })

  it('ends a candidate at commas closing its URL, or at a comma after its descriptors', () => {
    expect(files('<img srcset="/a.jpg, /b.jpg,, /c.jpg 2x,/d.jpg 3x">')).toEqual(
      ['/a.jpg', '/b.jpg', '/c.jpg', '/d.jpg'].map(own)
    )
  })

  it('reads a comma inside parentheses as part of a descriptor', () => {
    expect(files('<img srcset="/a.jpg 100w (future, descriptor), /b.jpg 2x">')).toEqual(
      ['/a.jpg', '/b.jpg'].map(own)
    )
  })

  it('skips whitespace of every kind around candidates', () => {
    expect(files('<img srcset="\n\t /a.jpg\t1x,\n\r\f  /b.jpg   2x  ,\n">')).toEqual(
      ['/a.jpg', '/b.jpg'].map(own)
    )
  })

  it('skips empty candidates and an empty srcset', () => {
    expect(files('<img srcset=" , ,, /a.jpg ,, , /b.jpg ,">')).toEqual(
      ['/a.jpg', '/b.jpg'].map(own)
    )
    expect(files('<img srcset=""><source srcset=" , "><img srcset>')).toEqual([])
  })

  it('keeps a one-letter URL and a candidate whose descriptor is wrong', () => {
    expect(files('<img srcset="a 1x, b.jpg 2X, c.jpg 100w 2x">')).toEqual(
      ['a', 'b.jpg', 'c.jpg'].map((name) => own(`/blog/post/${name}`))
    )
  })

  it('resolves candidates like any other URL and drops the non-http ones', () => {
    expect(
      filesOf(
        '<source srcset="data:image/png;base64,iVBORw0KGgo= 1x, ../b.jpg#x 2x, https://cdn.example.net/c.jpg 3x">',
        PAGE
      )
    ).toEqual({ files: [own('/blog/b.jpg')], otherHost: ['https://cdn.example.net/c.jpg'] })
  })
})

describe('filesOf: where a URL points', () => {
  it('resolves ./, ../, /root, bare and protocol-relative paths against the page', () => {
    const html = `
      <script src="./same.js"></script>
      <script src="../up.js"></script>
      <script src="../../../../above-root.js"></script>
      <script src="/root.js"></script>
      <script src="bare.js?v=3"></script>
      <script src="//www.example.com/protocol-relative.js"></script>
      <script src="//cdn.example.net/elsewhere.js"></script>`
    expect(filesOf(html, PAGE)).toEqual({
      files: [
        own('/blog/post/same.js'),
        own('/blog/up.js'),
        own('/above-root.js'),
        own('/root.js'),
        own('/blog/post/bare.js?v=3'),
        own('/protocol-relative.js')
      ],
      otherHost: ['https://cdn.example.net/elsewhere.js']
    })
  })

  it('resolves a protocol-relative URL with the page’s scheme', () => {
    expect(filesOf('<img src="//www.example.com/a.png">', 'http://www.example.com/')).toEqual({
      files: ['http://www.example.com/a.png'],
      otherHost: []
    })
  })

  it('drops fragments, so a file named with and without one is one file', () => {
    expect(
      files('<img src="/sprite.svg#icon-a"><img src="/sprite.svg#icon-b"><img src="/sprite.svg">')
    ).toEqual([own('/sprite.svg')])
    expect(files('<link rel="stylesheet" href="/a.css?v=1#top">')).toEqual([own('/a.css?v=1')])
  })

  it('counts other hosts, other ports and the other scheme as another origin', () => {
    const html = `
      <img src="https://cdn.example.net/a.png">
      <img src="https://example.com/apex.png">
      <img src="https://static.www.example.com/sub.png">
      <img src="https://www.example.com:8443/port.png">
      <img src="http://www.example.com/plain-http.png">
      <img src="https://www.example.com:443/default-port.png">
      <img src="HTTPS://WWW.EXAMPLE.COM/upper-host.png">`
    expect(filesOf(html, PAGE)).toEqual({
      files: [own('/default-port.png'), own('/upper-host.png')],
      otherHost: [
        'https://cdn.example.net/a.png',
        'https://example.com/apex.png',
        'https://static.www.example.com/sub.png',
        'https://www.example.com:8443/port.png',
        'http://www.example.com/plain-http.png'
      ]
    })
  })

  it('takes the page’s own port as its origin', () => {
    expect(
      filesOf('<img src="/a.png"><img src="http://127.0.0.1/b.png">', 'http://127.0.0.1:8080/')
    ).toEqual({ files: ['http://127.0.0.1:8080/a.png'], otherHost: ['http://127.0.0.1/b.png'] })
  })

  it('ignores every scheme but http and https, and values that are empty or do not parse', () => {
    const html = `
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <img src="blob:https://www.example.com/0f6c1b2e-1d1e-4c5a-9a8f-3e2b1c0d9e8f">
      <script src="javascript:alert(1)"></script>
      <link rel="icon" href="mailto:webmaster@example.com">
      <link rel="stylesheet" href="ftp://ftp.example.com/a.css">
      <img src="file:///etc/passwd">
      <img src="about:blank">
      <img src="JavaScript:void(0)">
      <img src="">
      <img src=" \t\n ">
      <img src="https://[::1">
      <img src="http://">
      <img src="/kept.png">`
    expect(filesOf(html, PAGE)).toEqual({ files: [own('/kept.png')], otherHost: [] })
  })

  it('trims ASCII whitespace from values, but not a no-break space', () => {
    expect(files('<img src=" \t\n/trimmed.png\r\f "><img src="\u00a0x.png">')).toEqual([
      own('/trimmed.png'),
      own('/blog/post/%C2%A0x.png')
    ])
  })

  it('decodes character references in values', () => {
    expect(files('<script src="/app.js?a=1&amp;b=2&#38;c=3"></script>')).toEqual([
      own('/app.js?a=1&b=2&c=3')
    ])
  })
})

describe('filesOf: <base href>', () => {
  it('resolves relative values against a relative base, itself resolved against the page', () => {
    expect(files('<base href="../static/"><img src="a.png"><img src="/root.png">')).toEqual([
      own('/blog/static/a.png'),
      own('/root.png')
    ])
  })

  it('resolves against an absolute base, on the page’s origin or not', () => {
    expect(
      files('<base href="https://www.example.com/v2/"><script src="app.js"></script>')
    ).toEqual([own('/v2/app.js')])
    expect(
      filesOf('<base href="https://cdn.example.net/v2/"><script src="app.js"></script>', PAGE)
    ).toEqual({ files: [], otherHost: ['https://cdn.example.net/v2/app.js'] })
  })

  it('takes the first base with an href, wherever it stands, for every value', () => {
    const html = `<img src="before.png"><base target="_blank">
      <base href="/first/"><base href="/second/"><img src="after.png">`
    expect(files(html)).toEqual([own('/first/before.png'), own('/first/after.png')])
  })

  it('ignores a first base that is not http(s) or does not parse: the page is the base, not a later one', () => {
    for (const href of ['javascript:alert(1)', 'data:text/html,x', 'https://[::1']) {
      expect(files(`<base href="${href}"><base href="/second/"><img src="a.png">`)).toEqual([
        own('/blog/post/a.png')
      ])
    }
  })

  it('takes an empty base href as the page itself', () => {
    expect(files('<base href=""><img src="a.png">')).toEqual([own('/blog/post/a.png')])
  })

  it('leaves absolute values as they are', () => {
    expect(files('<base href="/static/"><img src="https://www.example.com/abs.png">')).toEqual([
      own('/abs.png')
    ])
  })
})

describe('filesOf: the markup as browsers take it', () => {
  it('reads tag names, attribute names and rel values in any case', () => {
    const html = `<HEAD><LINK REL="StyleSheet" HREF="/a.css"><Link Rel="SHORTCUT ICON" Href="/b.ico">
      <SCRIPT SRC="/c.js"></SCRIPT></HEAD><BODY><Img SrcSet="/d.png 2x" SRC="/E.png">
      <PICTURE><SOURCE SRCSET="/f.avif"></PICTURE><VIDEO POSTER="/g.jpg"></VIDEO>`
    expect(files(html)).toEqual(
      ['/a.css', '/b.ico', '/c.js', '/E.png', '/d.png', '/f.avif', '/g.jpg'].map(own)
    )
  })

  it('splits rel on any ASCII whitespace', () => {
    expect(files('<link rel="\talternate\nstylesheet " href="/alt.css">')).toEqual([
      own('/alt.css')
    ])
  })

  it('reads unquoted attributes and tags never closed', () => {
    const html = `<html><head><link rel=stylesheet href=/a.css>
      <body><div><p><img src=/b.png><ul><li><img src=/c.png alt=x><li><img src=/d.png`
    expect(files(html)).toEqual(['/a.css', '/b.png', '/c.png'].map(own))
  })

  it('does not read a script body, or the text of style, textarea and title, as tags', () => {
    const html = `<script>
        document.write('<script src="/written.js"></scr' + 'ipt>')
        const html = "<img src='/in-script.png'>"
      </script>
      <style>/* <link rel="stylesheet" href="/in-style.css"> */</style>
      <title><img src="/in-title.png"></title>
      <textarea><img src="/in-textarea.png"></textarea>
      <script src="/real.js"></script>`
    expect(files(html)).toEqual([own('/real.js')])
  })

  it('does not read tags inside comments', () => {
    const html = `<!-- <script src="/commented.js"></script> -->
      <!--[if lt IE 9]><script src="/html5shiv.js"></script><![endif]-->
      <!-- <img src="/a.png"> <!-- not nested --> <img src="/kept.png">`
    expect(files(html)).toEqual([own('/kept.png')])
  })

  it('reads what noscript and template hold: some visitors or scripts load it', () => {
    const html = `<noscript><img src="/no-js.png"></noscript>
      <template><img src="/later.png"></template>`
    expect(files(html)).toEqual([own('/no-js.png'), own('/later.png')])
  })

  it('keeps the first of two same attributes and a > inside quotes', () => {
    expect(files('<img src="/first.png" SRC="/second.png"><img alt="a > b" src="/q.png">')).toEqual(
      [own('/first.png'), own('/q.png')]
    )
  })
})

describe('filesOf: each file once', () => {
  it('lists a file once, where it first appears, however it is spelled', () => {
    const html = `
      <link rel="preload" as="script" href="/app.js">
      <img src="https://cdn.example.net/a.png">
      <script src="app.js"></script>
      <script src="/app.js"></script>
      <script src="https://www.example.com/app.js#main"></script>
      <img src="/b.png" srcset="/b.png 1x, /b.png 2x">
      <img src="//cdn.example.net/a.png">`
    expect(filesOf(html, 'https://www.example.com/')).toEqual({
      files: [own('/app.js'), own('/b.png')],
      otherHost: ['https://cdn.example.net/a.png']
    })
  })
})
