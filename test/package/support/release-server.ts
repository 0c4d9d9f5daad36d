/**
 * A stand-in for the GitHub release's download server on 127.0.0.1: `files` served at the path GitHub serves a
 * release's assets from, `/<owner>/<name>/releases/download/v<version>/<file>`, so a page's install line runs with
 * only `https://github.com` swapped for `origin`. `requests` lists the paths asked for, so a test can tell that the
 * line fetched from it. test/package/readme.test.ts and test/docs/recipes.test.ts use it.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { forgetCachedUrls } from "./npm-cache";
import { REPOSITORY_WEB_URL } from "./repository-links";

export interface ReleaseServer {
  /** `http://127.0.0.1:<port>`: what replaces `https://github.com` in a page's line. */
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

/** The path GitHub serves `file` of release v<version> at. */
export const releaseDownloadPath = (version: string, file: string): string =>
  `${new URL(REPOSITORY_WEB_URL).pathname}/releases/download/v${version}/${file}`;

/** `port`: a port of the test's choosing (0, the default: one the system picks). */
export async function serveReleaseFiles(version: string, files: string[], port = 0): Promise<ReleaseServer> {
  const byPath = new Map(files.map((file) => [releaseDownloadPath(version, path.basename(file)), file]));
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const file = byPath.get(req.url ?? "");
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": fs.statSync(file).size,
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // An earlier run on the same port left its tarball in npm's cache under this very URL (npm-cache.ts).
  const urls = [...byPath.keys()].map((file) => `${origin}${file}`);
  forgetCachedUrls(urls);
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => server.close(() => resolve())).then(() => forgetCachedUrls(urls)),
  };
}
