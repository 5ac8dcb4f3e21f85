/**
 * What the scripts' command lines share: the options parsed strictly, `--help`, and a mistake told
 * in one line before the usage.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'

type Options = NonNullable<ParseArgsConfig['options']>
type Values<T extends Options> = ReturnType<typeof parseArgs<{ options: T }>>['values']

export class CommandLine {
  constructor(
    /** The command's name, which starts each of its error lines. */
    protected readonly name: string,
    private readonly usage: string
  ) {}

  /** A command-line mistake: one line saying what is wrong, then the usage, exit 2. */
  usageError(message: string): never {
    console.error(`${this.name}: ${message}`)
    console.error(this.usage)
    process.exit(2)
  }

  /**
   * The options given, or the usage (exit 0 for `--help`, 2 for a mistake). A leading `--` is
   * skipped: the npm scripts pass one before the user's arguments, because Node 20 and 24 take an
   * `--env-file` anywhere after the script's name for their own (nodejs/node#54232), but not after
   * `--`.
   */
  parse<const T extends Options>(options: T): Values<T> {
    const args = process.argv.slice(2)
    if (args[0] === '--') args.shift()
    let values: Values<T>
    try {
      values = parseArgs({ args, options }).values
    } catch (error) {
      // parseArgs adds a second sentence on dash-led positionals; the first says what is wrong.
      const message = error instanceof Error ? error.message : String(error)
      return this.usageError(message.split(/\.\s/)[0] ?? message)
    }
    if ((values as { help?: boolean }).help === true) {
      console.log(this.usage)
      process.exit(0)
    }
    return values
  }
}
