/** Unit tests of the one list grammar, and of the key and URL lists read with it. */
import { describe, expect, it } from '@jest/globals'
import { listItems, parseKeys, parseUrls } from '../src/config/lists.js'
import { InputError } from '../src/config/input-error.js'
import { NO_SECRETS } from './support/guard.js'

/** The name of a list input, as every message about it starts. */
type ListInput = Parameters<typeof listItems>[1]

/** What a list reads as: its items in order, or the refusal's whole message. */
type Read = readonly string[] | { refused: string }

const JOINED = 'holds two URLs joined by a comma; separate URLs with newlines or spaces'
const NOT_AN_ARRAY =
  'is not a JSON array of strings, which a value starting with [ and ending with ] must be; write it as one (["a","b"]), or leave out the brackets'

const GRAMMAR: [what: string, input: ListInput, value: string, read: Read][] = [
  // Keys in text
  [
    'spaces, commas, newlines and tabs separate keys',
    'keys',
    'a b,c\nd\te',
    ['a', 'b', 'c', 'd', 'e']
  ],
  [
    'Windows line endings and runs of separators',
    'keys',
    'one\r\ntwo\r\n , \t three',
    ['one', 'two', 'three']
  ],
  ['separators at either end and blank items', 'keys', ',, \n a ,,, b \n\n', ['a', 'b']],
  ['empty text', 'keys', '', []],
  ['blank text', 'keys-file', ' \n\t,, ', []],
  ['duplicates are kept: the reader of the list drops them', 'keys', 'b a b', ['b', 'a', 'b']],
  [
    'a comma always separates keys, even after a scheme',
    'keys',
    'https://h/a,b',
    ['https://h/a', 'b']
  ],
  ['a lone quote is text, not JSON', 'keys', '"home about', ['"home', 'about']],
  ['quoted keys side by side are text, not one JSON string', 'keys', '"a" "b"', ['"a"', '"b"']],
  ['a bracket alone is text', 'keys', '[', ['[']],
  [
    'a Unicode space does not separate: the key is refused, not split',
    'keys',
    'ok release\u00a0v2',
    {
      refused:
        'keys: "release v2" holds whitespace (U+00A0) that does not separate keys; separate them with spaces, commas or newlines'
    }
  ],
  [
    'nor does a line separator',
    'keys-file',
    'a\u2028b',
    {
      refused:
        'keys-file: "a\\u2028b" holds whitespace (U+2028) that does not separate keys; separate them with spaces, commas or newlines'
    }
  ],
  // URLs in text
  [
    'a comma and a space separate URLs, as people type them into a form',
    'urls',
    'https://h.example/a, https://h.example/b',
    ['https://h.example/a', 'https://h.example/b']
  ],
  [
    'a comma ending the value separates',
    'verify-urls',
    'https://h.example/a,',
    ['https://h.example/a']
  ],
  [
    'commas before a URL, and runs of commas, separate',
    'wait-for-url',
    'https://h.example/a ,https://h.example/b,,\nhttps://h.example/c',
    ['https://h.example/a', 'https://h.example/b', 'https://h.example/c']
  ],
  [
    'spaces, tabs and line endings separate URLs',
    'urls-file',
    'https://a.example/1 https://a.example/2\n\thttps://b.example/3?q=x\r\n',
    ['https://a.example/1', 'https://a.example/2', 'https://b.example/3?q=x']
  ],
  [
    'a comma followed by anything else is part of the URL',
    'urls',
    'https://h.example/img/w_100,h_50.jpg https://h.example/list?ids=1,2,3 https://h.example/a,httpd.conf https://h.example/a,http:/one-slash https://h.example/a,ftp://h.example/b',
    [
      'https://h.example/img/w_100,h_50.jpg',
      'https://h.example/list?ids=1,2,3',
      'https://h.example/a,httpd.conf',
      'https://h.example/a,http:/one-slash',
      'https://h.example/a,ftp://h.example/b'
    ]
  ],
  [
    'a comma running into https:// is refused: as one URL it purges /a,https://h.example/b',
    'urls',
    'https://h.example/a,https://h.example/b',
    { refused: `urls: "https://h.example/a,https://h.example/b" ${JOINED}` }
  ],
  [
    'so is one running into http:// in any case',
    'urls-file',
    'https://h.example/ok https://h.example/a,HTTP://h.example/b',
    { refused: `urls-file: "https://h.example/a,HTTP://h.example/b" ${JOINED}` }
  ],
  [
    'three URLs joined are counted',
    'verify-urls',
    'https://h.example/a,https://h.example/b,http://c/',
    {
      refused:
        'verify-urls: "https://h.example/a,https://h.example/b,http://c/" holds 3 URLs joined by commas; separate URLs with newlines or spaces'
    }
  ],
  [
    'joined URLs are shown without the password the URL parser reads as path',
    'wait-for-url',
    'https://h.example/a,https://deploy:s3cr3t-pw@h.example/b',
    { refused: `wait-for-url: "https:***@h.example/b" ${JOINED}` }
  ],
  [
    'a Unicode space between URLs is refused, not split on',
    'urls',
    'https://h.example/a\u00a0https://h.example/b',
    {
      refused:
        'urls: "https://h.example/a https://h.example/b" holds whitespace (U+00A0) that does not separate URLs; separate them with newlines or spaces'
    }
  ],
  // JSON arrays
  [
    'a compact JSON array, as jq -c writes it',
    'keys',
    '["homepage","about"]',
    ['homepage', 'about']
  ],
  [
    'a pretty-printed JSON array, whitespace around it',
    'keys-file',
    '\n[\n  "homepage",\n  "about"\n]\n',
    ['homepage', 'about']
  ],
  ['an empty element is dropped, as a blank item is', 'keys', '["a","","b"]', ['a', 'b']],
  ['an empty array', 'urls', '[ ]', []],
  ['an element is one item, commas included', 'keys', '["a,b","[draft]"]', ['a,b', '[draft]']],
  [
    'a URL element keeps a comma at its end',
    'urls',
    '["https://h.example/a,", "https://h.example/b"]',
    ['https://h.example/a,', 'https://h.example/b']
  ],
  [
    'an element holding whitespace is refused, not split',
    'keys',
    '["homepage", "home page"]',
    {
      refused:
        'keys: element 2 of the JSON array, "home page", holds whitespace (U+0020); give each key as an element of its own'
    }
  ],
  [
    'also at its ends, where the URL parser would drop it',
    'urls',
    '[" https://h.example/a"]',
    {
      refused:
        'urls: element 1 of the JSON array, " https://h.example/a", holds whitespace (U+0020); give each URL as an element of its own'
    }
  ],
  [
    'an element joining URLs is refused as in text',
    'verify-urls',
    '["https://h.example/a,https://h.example/b"]',
    { refused: `verify-urls: "https://h.example/a,https://h.example/b" ${JOINED}` }
  ],
  [
    'text in brackets that is not JSON is refused, not read as keys with brackets',
    'keys',
    '[homepage, about]',
    { refused: `keys: "[homepage, about]" ${NOT_AN_ARRAY}` }
  ],
  ['one key in brackets too', 'keys', '[draft]', { refused: `keys: "[draft]" ${NOT_AN_ARRAY}` }],
  [
    'a JSON array holding other than strings',
    'urls',
    '["https://h.example/a", 1]',
    { refused: `urls: "[\\"https://h.example/a\\", 1]" ${NOT_AN_ARRAY}` }
  ],
  [
    'nested arrays',
    'keys-file',
    '[["a"]]',
    { refused: `keys-file: "[[\\"a\\"]]" ${NOT_AN_ARRAY}` }
  ],
  [
    'one JSON string is refused: its quotes would be read as part of the keys',
    'keys',
    '"homepage about"',
    {
      refused:
        'keys: "\\"homepage about\\"" is one JSON string, whose quotes would be read as part of the keys; remove them, or give a JSON array of strings (["a","b"])'
    }
  ],
  [
    'one JSON string of URLs',
    'wait-for-url',
    '"https://h.example/a"',
    {
      refused:
        'wait-for-url: "\\"https://h.example/a\\"" is one JSON string, whose quotes would be read as part of the URLs; remove them, or give a JSON array of strings (["a","b"])'
    }
  ],
  // Service ids
  [
    'newlines and commas separate service ids, spaces around them dropped',
    'service-id',
    'svc1, svc2\nsvc3\r\n\n ,svc1 ',
    ['svc1', 'svc2', 'svc3', 'svc1']
  ],
  [
    'a space does not: with mode: all, prod staging must never purge two services',
    'service-id',
    'prod staging',
    {
      refused:
        'service-id: "prod staging" holds whitespace (U+0020) that does not separate service ids; separate them with newlines or commas'
    }
  ],
  ['a JSON array of service ids', 'service-id', '["prod","staging"]', ['prod', 'staging']],
  [
    'service ids in brackets that are not JSON',
    'service-id',
    '[prod, staging]',
    { refused: `service-id: "[prod, staging]" ${NOT_AN_ARRAY}` }
  ]
]

describe('listItems: the one grammar of list inputs', () => {
  it.each(GRAMMAR)('%s (%s: %j)', (_what, input, value, read) => {
    const items = (): string[] => [...listItems(value, input, NO_SECRETS)]
    if ('refused' in read) {
      expect(items).toThrow(InputError)
      expect(items).toThrow(new InputError(read.refused))
      return
    }
    expect(items()).toEqual(read)
  })
})

describe('parseKeys', () => {
  it('gives the keys of each list in turn, each once, first place kept, case kept', () => {
    const keys = parseKeys(NO_SECRETS, ['b a Key b', 'keys'], ['["key","a","c"]', 'keys-file'])
    expect(keys).toEqual(['b', 'a', 'Key', 'key', 'c'])
  })

  it('checks each key, naming the input it came from', () => {
    expect(() => parseKeys(NO_SECRETS, ['a', 'keys'], ['b "c"', 'keys-file'])).toThrow(
      /^keys-file: key "\\"c\\"" is wrapped in quotes/
    )
  })
})

describe('parseUrls', () => {
  it('gives the URLs of each list in turn, each once by where its purge goes, first spelling kept', () => {
    const urls = parseUrls(
      NO_SECRETS,
      ['https://CDN.example.com/a https://cdn.example.com:443/a#top', 'urls'],
      ['https://cdn.example.com/b\nhttps://cdn.example.com/a', 'urls-file']
    )
    expect(urls.map((entry) => [entry.target, entry.address])).toEqual([
      ['https://CDN.example.com/a', 'https://cdn.example.com/a'],
      ['https://cdn.example.com/b', 'https://cdn.example.com/b']
    ])
  })

  it('keeps URLs that differ by path case, query or scheme apart', () => {
    const urls = parseUrls(NO_SECRETS, [
      'https://cdn.example.com/A https://cdn.example.com/a https://cdn.example.com/a?v=1 http://cdn.example.com/a',
      'urls'
    ])
    expect(urls).toHaveLength(4)
  })

  it('checks each URL, naming the input it came from', () => {
    expect(() =>
      parseUrls(NO_SECRETS, ['https://ok.example.com/', 'urls'], ['/relative', 'urls-file'])
    ).toThrow(/^urls-file: "\/relative" is not an absolute URL/)
  })
})
