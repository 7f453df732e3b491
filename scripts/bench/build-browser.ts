/**
 * Builds the browser's app alone into the folder named by the first argument. Vite's `build()`
 * builds one environment, the browser's, where `vite build` also builds the server's render
 * entry into dist-server/: measuring what a browser downloads needs neither that nor dist/.
 */
import { build } from 'vite'

const [outDir] = process.argv.slice(2)
if (outDir === undefined) throw new Error('usage: tsx scripts/bench/build-browser.ts <outDir>')
await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } })
