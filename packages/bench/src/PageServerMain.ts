/**
 * The page server as a child process: `node --import tsx src/PageServerMain.ts PAGES START SPACING [KIND]`.
 * Prints `{"port":N}` once listening on 127.0.0.1; exits when its stdin closes.
 *
 * @since 0.1.0
 */
import * as PageServer from "./PageServer.js"

const [pages, start, spacing] = process.argv.slice(2, 5).map(Number)
const kind = process.argv[5] === "long" ? "long" : "short"
const shape: PageServer.Shape = {
  pages: pages ?? PageServer.defaultShape.pages,
  start: start ?? PageServer.defaultShape.start,
  spacing: spacing ?? PageServer.defaultShape.spacing,
  kind
}
const server = await PageServer.listen(PageServer.makeDataset(shape))
const address = server.address()
if (address === null || typeof address === "string") throw new Error("expected a TCP address")
process.stdout.write(JSON.stringify({ port: address.port }) + "\n")
// The harness holds our stdin: when it goes away (even killed), so do we.
process.stdin.on("end", () => process.exit(0))
process.stdin.on("error", () => process.exit(0))
process.stdin.resume()
