// The emulator command's first hour, through the built command (`npm run build` first) as a real process: the
// banner comes first, the port is fixed unless told otherwise, and each start has passwords of its own unless
// `--seed` repeats a run.
import { execFile } from "node:child_process";
import * as net from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEFAULT_PORT, parseCliArgs } from "../../emulator/cli";
import { DEMO_API_KEY } from "../../emulator/index";
import { startEmulatorCommand } from "../helpers/emulator-command";
import { until } from "../helpers/promises";

jest.setTimeout(60_000);

const CLI = path.resolve(__dirname, "../../dist/emulator/cli.js");

/** Creates a VPS on the emulator at `baseUrl`; returns its root password. */
async function firstPassword(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/orders/new-vps`, {
    method: "POST",
    headers: {
      authorization: `rimuhosting apikey=${DEMO_API_KEY}`,
      "content-type": "application/json",
      accept: "application/json",
    },
    body: JSON.stringify({
      new_order_request: { instantiation_options: { domain_name: "first.example.com", distro: "deb12.64" } },
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    post_new_vps_response: { new_order_request: { instantiation_options: { password: string } } };
  };
  return body.post_new_vps_response.new_order_request.instantiation_options.password;
}

/** The first VPS's password of a fresh emulator command started with `args`. */
async function passwordOfARun(args: string[]): Promise<string> {
  const emulator = await startEmulatorCommand(process.execPath, [
    CLI,
    "--port",
    "0",
    "--time-scale",
    "0",
    "--quiet",
    ...args,
  ]);
  try {
    return await firstPassword(emulator.baseUrl);
  } finally {
    await emulator.stop();
  }
}

describe("the emulator command", () => {
  test("the banner is the first thing it prints, before the request log lines", async () => {
    const emulator = await startEmulatorCommand(process.execPath, [CLI, "--port", "0", "--time-scale", "0"]);
    try {
      expect(emulator.stdout.split("\n")[0]).toMatch(
        /^RimuHosting emulator listening on http:\/\/127\.0\.0\.1:\d+\/r$/,
      );
      const res = await fetch(`${emulator.baseUrl}/distributions`, {
        headers: { accept: "application/json" },
      });
      expect(res.status).toBe(200);
      // the request log is on: a JSON line for that request, after the banner (waited for: it is written once
      // the answer has gone)
      const logLine = /^\{.*"url":"\/r\/distributions".*\}$/m;
      const after = () => emulator.output().slice(emulator.stdout.length);
      await until("the request's log line", () => logLine.test(after()), { timeoutMs: 10_000 });
      expect(after()).toMatch(logLine);
    } finally {
      await emulator.stop();
    }
  });

  test(`listens on ${DEFAULT_PORT} unless told otherwise, and says so in one line when that port is taken`, async () => {
    expect(DEFAULT_PORT).toBe(8780);
    expect(parseCliArgs([])).toMatchObject({ port: DEFAULT_PORT });
    expect(parseCliArgs(["--port", "0"])).toMatchObject({ port: 0 });
    // Hold the port (if something else already does, the command meets the same refusal).
    const blocker = net.createServer();
    await new Promise<void>((resolve) => {
      blocker.once("error", () => resolve());
      blocker.listen(DEFAULT_PORT, "127.0.0.1", resolve);
    });
    try {
      const failed = await promisify(execFile)(process.execPath, [CLI, "--quiet"], { timeout: 20_000 }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
      );
      expect(failed).toEqual({
        code: 1,
        stderr:
          `rimuhosting-emulator: port ${DEFAULT_PORT} on 127.0.0.1 is already in use (an emulator started earlier?). ` +
          "Stop what is listening there, or choose another port with --port N (--port 0 picks a free one).\n",
      });
    } finally {
      blocker.close();
    }
  });

  test("each start gives new passwords; --seed N gives the same ones again", async () => {
    const [a, b] = [await passwordOfARun([]), await passwordOfARun([])];
    expect(a).not.toBe(b);
    const [c, d] = [await passwordOfARun(["--seed", "9"]), await passwordOfARun(["--seed", "9"])];
    expect(c).toBe(d);
  });
});
