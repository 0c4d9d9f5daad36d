/**
 * A stand-in for the three calls docs/ci.md's bill workflow makes to GitHub's REST API, on 127.0.0.1: list a pull
 * request's comments (paged), create one, update one. Comments live in memory; every request's method and path is
 * kept, so a test can say which calls were made.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface Comment {
  id: number;
  body: string;
  user: { login: string; type: "User" | "Bot" };
}

export const STAND_IN_REPO = "acme/infra";
export const STAND_IN_PR = 7;
/** The token the stand-in accepts: not a real one, so nothing is lost if a test prints it. */
export const STAND_IN_TOKEN = "ghs_not-a-real-token";

export interface GitHubStandIn {
  /** GITHUB_API_URL for a step. */
  apiUrl: string;
  /** "GET /repos/…?page=1", in the order made. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `comments` (changed in place by the calls) on a port the system picks. */
export async function serveGitHubStandIn(comments: Comment[]): Promise<GitHubStandIn> {
  const requests: string[] = [];
  let nextId = 1000;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const url = new URL(req.url!, "http://localhost");
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${STAND_IN_TOKEN}`)
        return reply(401, { message: "Bad credentials" });
      const list = `/repos/${STAND_IN_REPO}/issues/${STAND_IN_PR}/comments`;
      const one = new RegExp(`^/repos/${STAND_IN_REPO}/issues/comments/(\\d+)$`).exec(url.pathname);
      if (req.method === "GET" && url.pathname === list) {
        const perPage = Number(url.searchParams.get("per_page") ?? 30);
        const page = Number(url.searchParams.get("page") ?? 1);
        return reply(200, comments.slice((page - 1) * perPage, page * perPage));
      }
      if (req.method === "POST" && url.pathname === list) {
        const created: Comment = {
          id: nextId++,
          body: (JSON.parse(body) as { body: string }).body,
          user: { login: "github-actions[bot]", type: "Bot" },
        };
        comments.push(created);
        return reply(201, created);
      }
      if (req.method === "PATCH" && one) {
        const found = comments.find((c) => c.id === Number(one[1]));
        if (!found) return reply(404, { message: "Not Found" });
        found.body = (JSON.parse(body) as { body: string }).body;
        return reply(200, found);
      }
      reply(404, { message: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
