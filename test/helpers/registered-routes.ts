/** The routes a built emulator registers, read from fastify's own route tree (printRoutes). */
import type { FastifyInstance } from "fastify";

/** "METHOD /path" (fastify's `:param` form) of each route `app` registers, HEAD aside. */
export async function registeredRoutes(app: FastifyInstance): Promise<string[]> {
  await app.ready();
  // printRoutes draws a tree: each line is a path segment under the line above it one level less indented.
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    for (const method of match[3]!.split(", ").filter((m) => m !== "HEAD"))
      routes.push(`${method} ${stack.join("")}`);
  }
  return routes;
}
