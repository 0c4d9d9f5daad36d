import { Writable } from "node:stream";
import Fastify from "fastify";
import { loggerOptions } from "../../emulator/app.js";
import { bannerLines, parseCliArgs } from "../../emulator/cli.js";
import { DEMO_API_KEY, startEmulator } from "../../emulator/index.js";

describe("cli", () => {
  test("cli: maps every flag to an option", () => {
    expect(
      parseCliArgs([
        "--port",
        "8080",
        "--host",
        "127.0.0.1",
        "--time-scale",
        "0.1",
        "--state-file",
        "s.json",
        "--latency-ms",
        "5",
        "--error-rate",
        "0.2",
        "--control",
        "--seed",
        "7",
        "--dedicated-servers",
      ]),
    ).toEqual({
      host: "127.0.0.1",
      port: 8080,
      timeScale: 0.1,
      stateFile: "s.json",
      latencyMs: 5,
      errorRate: 0.2,
      control: true,
      seed: 7,
      dedicatedServers: true,
      logger: true,
    });
    expect(parseCliArgs(["--quiet"])).toMatchObject({ logger: false, control: false });
    expect(parseCliArgs(["--help"])).toBe("help");
  });

  test("cli: bad values and unknown flags are refused", () => {
    expect(() => parseCliArgs(["--port", "abc"])).toThrow(/--port must be a number/);
    expect(() => parseCliArgs(["--error-rate", "2"])).toThrow(/errorRate/);
    expect(() => parseCliArgs(["--bogus"])).toThrow();
  });

  test("banner: listens on .../r, but the export hint gives the server root that RimuHosting's tools append /r to", async () => {
    const emulator = await startEmulator({ timeScale: 0 });
    try {
      const lines = bannerLines(emulator.baseUrl);
      const root = `http://127.0.0.1:${emulator.port}`;
      expect(lines[0]).toBe(`RimuHosting emulator listening on ${root}/r`);
      expect(lines).toContain(`Demo API key: ${DEMO_API_KEY}`);
      expect(lines.at(-1)).toBe(`export RIMUHOSTING_BASEURL=${root} RIMUHOSTING_APIKEY=${DEMO_API_KEY}`);
      const hinted = /RIMUHOSTING_BASEURL=(\S+)/.exec(lines.at(-1)!)![1]!;
      const res = await fetch(`${hinted}/r/distributions`, { headers: { accept: "application/json" } });
      expect(res.status).toBe(200);
      expect(Object.keys((await res.json()) as object)).toEqual(["get_distros_response"]);
    } finally {
      await emulator.close();
    }
  });

  test("request log lines carry method, URL and status but never the Authorization header", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions(true);
    if (!options) throw new Error("logger options expected");
    const app = Fastify({ logger: { ...options, stream } });
    app.get("/r/orders", async () => ({ ok: true }));
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const secret = "10000000000000000000000000000001";
      const address = app.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${address.port}/r/orders`, {
        headers: { authorization: `rimuhosting apikey=${secret}` },
      });
      expect(res.status).toBe(200);
      app.log.info({ req: { method: "GET", url: "/x", headers: { authorization: secret } } }, "explicit");
      const text = lines.join("");
      expect(text).toContain('"url":"/r/orders"');
      expect(text).toContain('"statusCode":200');
      expect(text).not.toContain(secret);
    } finally {
      await app.close();
    }
  });
});
