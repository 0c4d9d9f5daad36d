/**
 * The CPU a provider's whole process used, every thread counted (those that ended too), from its exec to its exit,
 * for a start that answers GetPluginInfo and is then sent SIGTERM: `perf stat -e task-clock` around the provider.
 * The bench's CPU at the answer (check-executable.ts) sums the threads alive at the answer, so a thread that had
 * ended by then (Node's CA-certificate thread, say) is not in it. Linux with `perf` only.
 */
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Why `perf stat` cannot be used here, or undefined when it can. */
export function perfMissing(): string | undefined {
  if (process.platform !== "linux") return "not Linux";
  try {
    execFileSync("perf", ["stat", "-x,", "-e", "task-clock", "--", "true"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "no perf that may count task-clock (linux-tools, kernel.perf_event_paranoid)";
  }
}

/** Starts `exe` (given `engineAddress`) under `perf stat`, calls GetPluginInfo, ends it; its CPU in milliseconds. */
export function wholeProcessCpuMs(exe: string, engineAddress: string): Promise<number> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-perf-")), "stat.csv");
  const perf = spawn("perf", ["stat", "-x,", "-e", "task-clock", "-o", out, "--", exe, engineAddress], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise<number>((resolve, reject) => {
    let line = "";
    perf.once("error", reject);
    perf.stdout.setEncoding("utf8").on("data", (text: string) => {
      if (line.includes("\n")) return;
      line += text;
      if (!line.includes("\n")) return;
      const client = new provrpc.ResourceProviderClient(
        `127.0.0.1:${Number(line.split("\n")[0])}`,
        grpc.credentials.createInsecure(),
      );
      client.getPluginInfo(new Empty(), (error) => {
        client.close();
        // perf passes no signal on: the provider (its child) is sent SIGTERM, and perf writes when it ends.
        const children = fs.readFileSync(`/proc/${perf.pid}/task/${perf.pid}/children`, "utf8").trim();
        for (const pid of children.split(/\s+/).filter(Boolean)) process.kill(Number(pid), "SIGTERM");
        if (error) reject(error);
      });
    });
    perf.once("exit", () => {
      const row = fs
        .readFileSync(out, "utf8")
        .split("\n")
        .find((r) => r.includes("task-clock"));
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      const ms = Number(row?.split(",")[0]);
      if (Number.isFinite(ms)) resolve(ms);
      else reject(new Error(`perf stat wrote no task-clock for ${exe}`));
    });
  });
}
