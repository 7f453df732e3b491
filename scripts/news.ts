// `npm run news -- <command>`: the operator's tools for posts (cli/news.ts says which).
import { runProgram } from './cli/command-line'
import { news } from './cli/news'

runProgram('news', news)
