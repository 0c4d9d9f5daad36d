// dist/release served on 127.0.0.1 the way a GitHub release serves its assets (one flat directory of files), for the
// tests that have the CLI download the plugin. The CLI is sent there from the GitHub source every SDK and package
// declaration names by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES (releaseOverrides), or by a program naming the URL.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/native/schema/package-schema";
import { RELEASE_DIR } from "./release-support";

export interface ReleaseServer {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A static server of dist/release on 127.0.0.1; `requests` lists the paths asked for. */
export async function serveRelease(): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    requests.push(`/${name}`);
    const file = path.join(RELEASE_DIR, path.basename(name));
    if (!name || name.includes("/") || !fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The environment that sends the CLI's downloads from the schema's PLUGIN_DOWNLOAD_URL (GitHub) to `server` instead of GitHub. */
export const releaseOverrides = (server: ReleaseServer): Record<string, string> => ({
  PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_DOWNLOAD_URL.replace(/[.]/g, "\\.")}=${server.url}`,
});
