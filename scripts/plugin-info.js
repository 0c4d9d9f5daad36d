#!/usr/bin/env node
/**
 * Starts a plugin executable as the Pulumi engine does and asks it GetPluginInfo: the check the CI workflow
 * (.github/workflows/ci.yml) runs on the darwin and windows plugins, on their own runners, where nothing of the
 * repository is installed. So it needs only Node: the gRPC call is made by hand over node:http2 (a request is a
 * 5-byte frame header and a protobuf message; GetPluginInfo takes an empty one and answers `string version = 1`).
 *
 *   node scripts/plugin-info.js <plugin executable> [<expected version>]
 *
 * Prints `<executable>: GetPluginInfo answered <version> in <ms> ms` and exits 0; exits 1 with the reason (and the
 * plugin's stderr) when it does not start, prints no port, does not answer in 120 s, or answers another version.
 */
const { spawn } = require("node:child_process");
const { Buffer } = require("node:buffer");
const http2 = require("node:http2");
const { clearTimeout, setTimeout } = require("node:timers");

const [exe, expected] = process.argv.slice(2);
if (!exe) {
  console.error("usage: node scripts/plugin-info.js <plugin executable> [<expected version>]");
  process.exit(2);
}

const started = process.hrtime.bigint();
const child = spawn(exe, [], { stdio: ["ignore", "pipe", "pipe"] });
let stderr = "";
child.stderr.setEncoding("utf8").on("data", (text) => (stderr += text));

function finish(code, message) {
  clearTimeout(timer);
  (code === 0 ? console.log : console.error)(
    `${exe}: ${message}${code !== 0 && stderr ? `\n${stderr}` : ""}`,
  );
  child.removeAllListeners("exit");
  child.kill();
  process.exitCode = code;
}

const timer = setTimeout(() => finish(1, "no answer to GetPluginInfo in 120 s"), 120_000);
child.once("error", (error) => finish(1, `could not start: ${error.message}`));
child.once("exit", (code, signal) => finish(1, `exited (${signal ?? code}) before answering`));

/** The `version` field (1, a string) of a PluginInfo message. */
function versionOf(message) {
  let at = 0;
  while (at < message.length) {
    const tag = message[at++];
    let length = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = message[at++];
      length |= (byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
    if (tag === 0x0a) return message.subarray(at, at + length).toString("utf8");
    at += length; // another length-delimited field (PluginInfo has only strings)
  }
  return undefined;
}

let out = "";
child.stdout.setEncoding("utf8").on("data", (text) => {
  if (out.includes("\n")) return;
  out += text;
  if (!out.includes("\n")) return;
  const port = Number(out.split("\n")[0]);
  if (!Number.isInteger(port) || port <= 0) return finish(1, `printed ${JSON.stringify(out)}, not a port`);
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", (error) => finish(1, `gRPC connection failed: ${error.message}`));
  const request = session.request({
    ":method": "POST",
    ":path": "/pulumirpc.ResourceProvider/GetPluginInfo",
    "content-type": "application/grpc",
    te: "trailers",
  });
  const chunks = [];
  let status;
  request.on("response", (headers) => (status = headers["grpc-status"]));
  request.on("trailers", (trailers) => (status = trailers["grpc-status"] ?? status));
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    session.close();
    const body = Buffer.concat(chunks);
    if (String(status) !== "0" || body.length < 5)
      return finish(1, `GetPluginInfo failed (grpc-status ${status})`);
    const version = versionOf(body.subarray(5, 5 + body.readUInt32BE(1)));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (expected && version !== expected)
      return finish(1, `GetPluginInfo answered ${version}, not ${expected}`);
    finish(0, `GetPluginInfo answered ${version} in ${ms.toFixed(0)} ms`);
  });
  request.end(Buffer.alloc(5)); // an empty message: not compressed, length 0
});
