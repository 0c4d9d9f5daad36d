import { Writable } from "node:stream";
import Fastify from "fastify";
import { loggerOptions } from "../../emulator/app.js";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { bannerLines, parseCliArgs, timeScaleLine } from "../../emulator/cli.js";
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
    expect(() => parseCliArgs(["--error-rate", "2"])).toThrow(
      "--error-rate must be a number from 0 to 1, not '2'.",
    );
    expect(() => parseCliArgs(["--bogus"])).toThrow();
    expect(parseCliArgs(["--now", "+40d"])).toMatchObject({ now: "+40d" });
    expect(() => parseCliArgs(["--now", "next week"])).toThrow(
      "--now must be an ISO 8601 date (2027-01-15) or date and time (2027-01-15T09:30:00Z), or a duration ahead such as +40d or +12h, not 'next week'.",
    );
  });

  test("cli: a value out of its bounds is one sentence naming the flag and the bounds", () => {
    // Beyond Node's longest timer a wait would fire at once (a quiet 1 ms), and the banner would say Infinity s.
    expect(() => parseCliArgs(["--latency-ms", "1e12"])).toThrow(
      new Error("--latency-ms must be a number from 0 to 600000, not '1e12'."),
    );
    expect(() => parseCliArgs(["--time-scale", "1e308"])).toThrow(
      new Error("--time-scale must be a number from 0 to 10, not '1e308'."),
    );
    expect(() => parseCliArgs(["--port", "99999"])).toThrow(
      new Error("--port must be a whole number from 0 to 65535, not '99999'."),
    );
    expect(() => parseCliArgs(["--port", "80.5"])).toThrow(
      new Error("--port must be a whole number from 0 to 65535, not '80.5'."),
    );
    expect(() => parseCliArgs(["--seed", "1.5"])).toThrow(
      new Error("--seed must be a whole number, not '1.5'."),
    );
    expect(parseCliArgs(["--time-scale", "10", "--latency-ms", "600000", "--port", "65535"])).toMatchObject({
      timeScale: 10,
      latencyMs: 600_000,
      port: 65535,
    });
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

  test("time scale line: says what the default is for and how to get the fast setting", () => {
    expect(timeScaleLine(1)).toBe(
      "Time scale 1: a create takes 45 s (the default, real-service timing, for rehearsing timeouts and progress output). " +
        "For quick tries start with --time-scale 0 (instant) or --time-scale 0.1.",
    );
    expect(timeScaleLine(0.1)).toContain("a create takes 4.5 s");
    expect(timeScaleLine(0.5)).toMatch(
      / For quick tries start with --time-scale 0 \(instant\) or --time-scale 0\.1\.$/,
    );
  });

  test("time scale line: at or below 0.1 (the pages' 0.05) offers only 0, never a slower scale", () => {
    expect(timeScaleLine(0.05)).toBe(
      "Time scale 0.05: a create takes 2.3 s (a fraction of real-service timing). For instant operations use --time-scale 0.",
    );
    expect(timeScaleLine(0.1)).toMatch(/\. For instant operations use --time-scale 0\.$/);
    expect(bannerLines("http://127.0.0.1:1/r", 0.05)[1]).toBe(timeScaleLine(0.05));
    expect(timeScaleLine(0)).toMatch(/^Time scale 0: every operation is instant/);
    expect(bannerLines("http://127.0.0.1:1/r", 1)[1]).toBe(timeScaleLine(1));
  });

  /** Runs the built CLI (`npm run build` first, as `npm test` does); resolves with its exit code and stderr. */
  async function runCli(args: string[]): Promise<{ code: number; stderr: string }> {
    const cli = path.resolve(__dirname, "../../dist/emulator/cli.js");
    try {
      await promisify(execFile)(process.execPath, [cli, ...args], { timeout: 20_000 });
      return { code: 0, stderr: "" };
    } catch (error) {
      const e = error as { code?: number; stderr?: string };
      return { code: e.code ?? -1, stderr: e.stderr ?? "" };
    }
  }

  test("start-up: a state file in a missing directory exits 1 with one clear line", async () => {
    const result = await runCli(["--state-file", "/nonexistent-dir-for-test/sub/state.json", "--quiet"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "rimuhosting-emulator: [EMU_ERR_STATE_INVALID] The directory of the state file /nonexistent-dir-for-test/sub/state.json " +
        "(/nonexistent-dir-for-test/sub) does not exist. Create it first (mkdir -p /nonexistent-dir-for-test/sub) or choose another path.",
    );
  });

  test("start-up: a state file that is not JSON exits 1 with its code, EMU_ERR_STATE_INVALID, as docs/emulator.md says", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-state-"));
    try {
      const file = path.join(dir, "state.json");
      fs.writeFileSync(file, '{"version": 1, "orders": [');
      const result = await runCli(["--state-file", file, "--quiet"]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `rimuhosting-emulator: [EMU_ERR_STATE_INVALID] The emulator state file ${file} is not JSON. ` +
          "Delete it or point stateFile elsewhere.",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("start-up: a port in use exits 1 and says how to choose another", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const result = await runCli(["--port", String(port), "--quiet"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain("--port 0 picks a free one");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  test("start-up: a bad flag value exits 2 with the usage", async () => {
    const result = await runCli(["--time-scale", "fast"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--time-scale must be a number, not 'fast'");
    expect(result.stderr).toContain("Usage: rimuhosting-emulator");
  });

  test("start-up: a port out of range exits 2 with the sentence and the usage, not the schema's message", async () => {
    const result = await runCli(["--port", "99999"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^rimuhosting-emulator: --port must be a whole number from 0 to 65535, not '99999'.\n\nUsage: /,
    );
    expect(result.stderr).not.toMatch(/✖|Too big|\n\s+at \S+:\d+:\d+/);
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
