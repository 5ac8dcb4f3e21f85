/** After each test file, the directories its action runs left in the temporary directory go. */
import { afterAll } from '@jest/globals'
import { removeRunDirs } from '../../tools/run-like-runner.js'

afterAll(removeRunDirs)
