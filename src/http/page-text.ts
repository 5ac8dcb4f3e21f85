/** How a page's decoded bytes become text: a byte order mark, else the `Content-Type` charset, else UTF-8. */
import { parse } from 'content-type'
import { TextDecoder } from 'node:util'

/** What a page without a usable charset is read as: what nearly every page today is written in. */
const DEFAULT_LABEL = 'utf-8'

/** Enough bytes to tell every byte order mark the Encoding Standard knows. */
const BOM_BYTES = 3

/** The `charset` parameter of a `Content-Type` value, as its label; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  return contentType === undefined ? undefined : parse(contentType).parameters.charset
}

/** The encoding a byte order mark at the start of `bytes` names (Encoding Standard, "BOM sniff"). */
function bomEncoding(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  return undefined
}

/** A decoder for `label`, or for UTF-8 when `TextDecoder` knows no such encoding. */
function decoderFor(label: string | undefined): TextDecoder {
  try {
    return new TextDecoder(label ?? DEFAULT_LABEL)
  } catch {
    return new TextDecoder(DEFAULT_LABEL)
  }
}

/**
 * Text from bytes that arrive in chunks: a character split between two chunks is decoded whole.
 * A byte order mark wins over the label, as browsers decode (no `<meta>` is read: the page is not
 * parsed as HTML); the mark itself is not part of the text.
 */
export class PageTextDecoder {
  private decoder: TextDecoder | undefined
  private head: Buffer = Buffer.alloc(0)

  constructor(private readonly label: string | undefined) {}

  /** The text `bytes` complete; bytes of a character not yet whole wait for the next chunk. */
  write(bytes: Buffer): string {
    if (this.decoder !== undefined) return this.decoder.decode(bytes, { stream: true })
    this.head = Buffer.concat([this.head, bytes])
    if (this.head.length < BOM_BYTES) return ''
    return this.start().decode(this.head, { stream: true })
  }

  /** The rest of the text once the body has ended. */
  end(): string {
    if (this.decoder !== undefined) return this.decoder.decode()
    return this.start().decode(this.head)
  }

  private start(): TextDecoder {
    this.decoder = decoderFor(bomEncoding(this.head) ?? this.label)
    return this.decoder
  }
}
