/** After each test file, the directories its action runs left in the temporary directory go. */
import { afterAll } from '@jest/globals'
import { removeRunDirs } from './run-action.js'

afterAll(removeRunDirs)
