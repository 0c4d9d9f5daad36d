/**
 * What the release build checks on each plugin executable before it ships it (and the tests and the bench reuse):
 * - `firstCall`: start it as the engine does, read the port it prints, make one gRPC call (GetPluginInfo);
 * - `checkFormat`: for a platform that cannot run here, the file's format (ELF, Mach-O or PE, of the right CPU),
 *   that Node found and embedded the plugin (its fuse is set), and for macOS that the ad hoc signature covers the
 *   file as shipped (every page hash recomputed).
 */
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { Target } from "./node-binaries.js";

export interface FirstCall {
  /** The version GetPluginInfo answered. */
  version: string;
  /** From the start of the process to GetPluginInfo's answer. */
  ms: number;
  /**
   * The CPU time the process (all its threads) had used by then, on Linux (/proc/<pid>/task/<tid>/schedstat):
   * unlike `ms`, hardly changed by other work on a busy machine (under qemu, qemu's). Undefined elsewhere.
   */
  cpuMs?: number;
}

/** The CPU time process `pid` has used so far, all its threads, in milliseconds (Linux), or undefined. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (process.platform !== "linux" || pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`))
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return undefined; // gone already, or no schedstat
  }
}

/**
 * Starts `command` (the plugin, or an emulator and the plugin) with no engine address, reads the port from the
 * first line of its stdout, calls GetPluginInfo, then ends it. Rejects with what it printed on stderr when it exits
 * first, or after `timeoutMs`.
 */
export function firstCall(
  command: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<FirstCall> {
  const started = process.hrtime.bigint();
  const child = spawn(command[0]!, command.slice(1), {
    env: opts.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  // The time limit ends with the call, however it ends: left running after an early failure, it would hold the
  // release build (or a test's worker) open until it fired.
  let timer: NodeJS.Timeout | undefined;
  const call = new Promise<FirstCall>((resolve, reject) => {
    let out = "";
    const fail = (why: string) =>
      reject(new Error(`${command.join(" ")}: ${why}${stderr ? `\n${stderr}` : ""}`));
    timer = setTimeout(() => fail(`no answer in ${opts.timeoutMs ?? 120_000} ms`), opts.timeoutMs ?? 120_000);
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`exited (${signal ?? code}) before answering`));
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      if (out.includes("\n")) return;
      out += text;
      if (!out.includes("\n")) return;
      const port = Number(out.split("\n")[0]);
      if (!Number.isInteger(port) || port <= 0) return fail(`printed ${JSON.stringify(out)}, not a port`);
      const client = new provrpc.ResourceProviderClient(
        `127.0.0.1:${port}`,
        grpc.credentials.createInsecure(),
      );
      client.getPluginInfo(new Empty(), (error, info) => {
        client.close();
        if (error) return fail(`GetPluginInfo failed: ${error.message}`);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        resolve({ version: info.getVersion(), ms, cpuMs: cpuMsOf(child.pid) });
      });
    });
  });
  return call.finally(async () => {
    clearTimeout(timer);
    child.kill("SIGTERM");
    await exited;
  });
}

/** Where Debian's arm64 cross libraries (scripts/release-tools.sh) put the C runtime qemu-user loads. */
const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";

/**
 * The command that runs `t`'s executable `exe` on this machine, or undefined when none can. On the release's
 * machine (linux x64): linux-amd64 itself, linux-arm64 under qemu-user (without it this throws, saying what to
 * install); macOS and Windows are checked by format only. On a Mac (native-executables.ts): both macOS platforms
 * (darwin-amd64 under Rosetta 2); on Windows x64: windows-amd64.
 */
export function commandHere(t: Target, exe: string): string[] | undefined {
  if (process.platform === "darwin") return t.os === "darwin" ? [exe] : undefined;
  if (process.platform === "win32") return t.platform === "windows-amd64" ? [exe] : undefined;
  if (t.platform === "linux-amd64") return [exe];
  if (t.platform !== "linux-arm64") return undefined;
  const sysroot = process.env.QEMU_LD_PREFIX ?? ARM64_SYSROOT;
  const qemu = (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => dir !== "")
    .map((dir) => `${dir}/qemu-aarch64`)
    .find((file) => fs.existsSync(file));
  if (!qemu || !fs.existsSync(`${sysroot}/lib/ld-linux-aarch64.so.1`))
    throw new Error(
      "running the linux-arm64 plugin here needs qemu-user and Debian's arm64 C libraries: scripts/release-tools.sh installs them",
    );
  return [qemu, "-L", sysroot, exe];
}

/** The first word of the application blob Node embeds (node_sea.cc's kMagic), then a word of flags. */
const SEA_BLOB_MAGIC = 0x0143da20;
/** The flags of that word that say what the blob holds besides the script (node_sea.cc's SeaFlags). */
const SEA_SNAPSHOT = 1 << 1;
const SEA_CODE_CACHE = 1 << 2;

/**
 * What the application blob embedded in `file` holds: V8's code cache of the script, a startup snapshot. The blob
 * is the last thing `node --build-sea` adds, after the whole node binary (which holds the magic word in its code
 * too): its header is the last occurrence of the magic.
 */
export function seaBlobHolds(file: string): { codeCache: boolean; snapshot: boolean } {
  const bytes = fs.readFileSync(file);
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(SEA_BLOB_MAGIC);
  const at = bytes.lastIndexOf(magic);
  if (at < 0) throw new Error(`${file} holds no application blob`);
  const flags = bytes.readUInt32LE(at + 4);
  return { codeCache: (flags & SEA_CODE_CACHE) !== 0, snapshot: (flags & SEA_SNAPSHOT) !== 0 };
}

/** The sentinel Node looks for to know it carries an application; `:1` once one is embedded. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1";

const ELF_MACHINE = { amd64: 0x3e, arm64: 0xb7 } as const;
const MACHO_CPU = { amd64: 0x01000007, arm64: 0x0100000c } as const;
const PE_MACHINE = { amd64: 0x8664, arm64: 0xaa64 } as const;

/** Throws, naming the file and what is wrong, unless `file` is `t`'s plugin executable; returns what it checked. */
export function checkFormat(t: Target, file: string): string {
  const bytes = fs.readFileSync(file);
  const wrong = (what: string) => new Error(`${file} is not a ${t.platform} plugin executable: ${what}`);
  if (!bytes.includes(SEA_FUSE))
    throw wrong("no application embedded (Node's single-executable fuse is not set)");
  switch (t.os) {
    case "linux": {
      if (bytes.readUInt32BE(0) !== 0x7f454c46 || bytes[4] !== 2) throw wrong("not a 64-bit ELF file");
      if (bytes.readUInt16LE(0x12) !== ELF_MACHINE[t.arch]) throw wrong("an ELF file for another CPU");
      return "ELF 64-bit, application embedded";
    }
    case "windows": {
      const pe = bytes.readUInt32LE(0x3c);
      if (bytes.toString("latin1", 0, 2) !== "MZ" || bytes.readUInt32BE(pe) !== 0x50450000)
        throw wrong("not a PE file");
      if (bytes.readUInt16LE(pe + 4) !== PE_MACHINE[t.arch]) throw wrong("a PE file for another CPU");
      // The optional header: PE32+ (0x20b), and the console subsystem (3): the engine reads its stdout.
      if (bytes.readUInt16LE(pe + 24) !== 0x20b || bytes.readUInt16LE(pe + 24 + 68) !== 3)
        throw wrong("not a 64-bit console program");
      return "PE32+ console, application embedded";
    }
    case "darwin":
      return checkMachO(bytes, MACHO_CPU[t.arch], wrong);
  }
}

const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const CS_HASHTYPE_SHA256 = 2;

/**
 * A 64-bit Mach-O executable for `cpu` with Node's NODE_SEA segment, signed ad hoc, whose code directory's page
 * hashes match the file (the check macOS makes as it pages the program in).
 */
function checkMachO(bytes: Buffer, cpu: number, wrong: (what: string) => Error): string {
  if (bytes.readUInt32LE(0) !== 0xfeedfacf) throw wrong("not a 64-bit Mach-O file");
  if (bytes.readUInt32LE(4) !== cpu) throw wrong("a Mach-O file for another CPU");
  if (bytes.readUInt32LE(12) !== 2) throw wrong("not an executable (MH_EXECUTE)");
  const ncmds = bytes.readUInt32LE(16);
  const segments: string[] = [];
  let signature: { offset: number; size: number } | undefined;
  for (let i = 0, at = 32; i < ncmds; i++, at += bytes.readUInt32LE(at + 4)) {
    const cmd = bytes.readUInt32LE(at);
    if (cmd === LC_SEGMENT_64) segments.push(bytes.toString("latin1", at + 8, at + 24).replace(/\0+$/, ""));
    if (cmd === LC_CODE_SIGNATURE)
      signature = { offset: bytes.readUInt32LE(at + 8), size: bytes.readUInt32LE(at + 12) };
  }
  if (!segments.includes("NODE_SEA")) throw wrong("no NODE_SEA segment");
  if (!signature) throw wrong("not signed (Apple Silicon runs no unsigned program)");
  // The signature: a big-endian SuperBlob of (type, offset) entries; the code directory is one of them.
  const sig = bytes.subarray(signature.offset, signature.offset + signature.size);
  if (sig.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw wrong("a signature of an unknown kind");
  const directories: number[] = [];
  for (let i = 0; i < sig.readUInt32BE(8); i++) {
    const blob = sig.readUInt32BE(12 + i * 8 + 4);
    if (sig.readUInt32BE(blob) === CSMAGIC_CODEDIRECTORY) directories.push(blob);
  }
  const cd = directories.find((d) => sig[d + 37] === CS_HASHTYPE_SHA256);
  if (cd === undefined) throw wrong("no SHA-256 code directory in its signature");
  if ((sig.readUInt32BE(cd + 12) & CS_ADHOC) === 0) throw wrong("signed, but not ad hoc");
  const hashOffset = sig.readUInt32BE(cd + 16);
  const codeSlots = sig.readUInt32BE(cd + 28);
  const codeLimit = sig.readUInt32BE(cd + 32);
  const hashSize = sig[cd + 36]!;
  const pageSize = 2 ** sig[cd + 39]!;
  if (codeLimit !== signature.offset) throw wrong("its signature does not cover the whole program");
  for (let slot = 0; slot < codeSlots; slot++) {
    const page = bytes.subarray(slot * pageSize, Math.min((slot + 1) * pageSize, codeLimit));
    const expected = sig.subarray(cd + hashOffset + slot * hashSize, cd + hashOffset + (slot + 1) * hashSize);
    if (!crypto.createHash("sha256").update(page).digest().equals(expected))
      throw wrong(`its signature does not match page ${slot} (changed after signing?)`);
  }
  return `Mach-O 64-bit, application embedded, ad hoc signature matching all ${codeSlots} pages`;
}
