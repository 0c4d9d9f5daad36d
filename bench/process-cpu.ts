/**
 * Preloaded into every node process the `pulumi` CLI starts during a bench (NODE_OPTIONS=--require), to tell
 * where the time goes: at exit it writes `<BENCH_CPU_DIR>/<pid>.json` with the process's role (the program,
 * the dynamic-provider host, or another node process), its CPU time and its peak memory. With
 * BENCH_PROFILE_DIR set it also CPU-profiles the process (`node --cpu-prof` is not allowed in NODE_OPTIONS)
 * and writes `<BENCH_PROFILE_DIR>/<role>-<pid>.cpuprofile`.
 *
 * Plain CommonJS with no imports of this repository: it runs inside the user's program and the provider host.
 */
import * as fs from "node:fs";
import * as inspector from "node:inspector";
import * as path from "node:path";

export type ProcessRole = "program" | "provider-host" | "other";

export interface ProcessCpu {
  role: ProcessRole;
  pid: number;
  cpuMs: number;
  maxRssMb: number;
}

function roleOf(argv: string[]): ProcessRole {
  const script = argv[1] ?? "";
  if (/[\\/]cmd[\\/]run([\\/]index\.js)?$/.test(script)) return "program";
  if (/[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(script)) return "provider-host";
  return "other";
}

function install(): void {
  const cpuDir = process.env.BENCH_CPU_DIR;
  if (!cpuDir) return;
  const role = roleOf(process.argv);
  const profileDir = process.env.BENCH_PROFILE_DIR;
  let session: inspector.Session | undefined;
  if (profileDir && role !== "other") {
    session = new inspector.Session();
    session.connect();
    session.post("Profiler.enable");
    session.post("Profiler.start");
  }
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    const cpu = process.cpuUsage();
    const record: ProcessCpu = {
      role,
      pid: process.pid,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    fs.writeFileSync(path.join(cpuDir, `${process.pid}.json`), JSON.stringify(record));
    // The inspector answers a same-thread session synchronously, so the profile is written before exit.
    session?.post("Profiler.stop", (error, result) => {
      if (!error && profileDir)
        fs.writeFileSync(
          path.join(profileDir, `${role}-${process.pid}.cpuprofile`),
          JSON.stringify(result.profile),
        );
    });
  };
  process.on("exit", write);
  // The engine stops the provider host with a signal, whose default action would skip the exit handler. (The
  // program's signals are left to the SDK.)
  if (role === "provider-host")
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        write();
        process.exit(0);
      });
}

install();
