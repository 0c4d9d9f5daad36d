/**
 * A release served on a port an earlier run had: npm, preferring its cache (as the tests' npm does), would take the
 * earlier run's tarball for the same URL without asking; the release server forgets that URL first
 * (support/npm-cache.ts). Its own npm cache, so the user's is not touched.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { QUIET_NPM_ENV } from "../docs/support/shell";
import { npmBinDir } from "./support/npm-versions";
import { scratchDir } from "./support/offline-project";
import { releaseDownloadPath, serveReleaseFiles } from "./support/release-server";

const VERSION = "0.0.1";
const scratch = scratchDir("npm-cache");
let tarball: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  const pkg = path.join(scratch.dir, "package");
  fs.mkdirSync(pkg);
  fs.writeFileSync(
    path.join(pkg, "package.json"),
    JSON.stringify({ name: "pulumi-rimuhosting", version: VERSION }),
  );
  tarball = path.join(scratch.dir, `pulumi-rimuhosting-${VERSION}.tgz`);
  execFileSync("tar", ["czf", tarball, "-C", scratch.dir, "package"]);
  const cache = path.join(scratch.dir, "npm-cache");
  process.env.npm_config_cache = cache; // support/npm-cache.ts reads it here, the npm below from its env
  env = {
    ...process.env,
    ...QUIET_NPM_ENV,
    npm_config_cache: cache,
    PATH: `${npmBinDir()}${path.delimiter}${process.env.PATH}`,
  };
});
afterAll(() => {
  delete process.env.npm_config_cache;
  scratch.cleanup();
});

// Not execFileSync: the servers answering npm run in this process's event loop.
const cacheAdd = (url: string) =>
  promisify(execFile)("npm", ["cache", "add", "--allow-remote=all", url], { env });

/** A server of an earlier run: the same tarball at the same path, not the release server of this run. */
async function earlierRunServer(
  port = 0,
): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/octet-stream" });
    fs.createReadStream(tarball).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

it("asks this run's server for a URL an earlier run's npm cached", async () => {
  const file = releaseDownloadPath(VERSION, path.basename(tarball));
  const earlier = await earlierRunServer();
  const url = `http://127.0.0.1:${earlier.port}${file}`;
  await cacheAdd(url);
  expect(earlier.requests).toEqual([file]);
  await earlier.close();

  // What the flake was: with the URL cached, npm asks no server at all.
  const again = await earlierRunServer(earlier.port);
  await cacheAdd(url);
  expect(again.requests).toEqual([]);
  await again.close();

  const release = await serveReleaseFiles(VERSION, [tarball], earlier.port);
  try {
    await cacheAdd(url);
    expect(release.requests).toEqual([file]);
  } finally {
    await release.close();
  }
});
