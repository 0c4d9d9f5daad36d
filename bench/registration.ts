/**
 * What registering a `Vps` costs the program, per VPS (issue 67: where a 500-VPS program's CPU goes). The SDK makes
 * an Output, with its promises, for every property a resource registers, and the `Vps` registers every output of
 * the field table so each can be read back. Registers 1 and N VPSs of the fleet example's shape under the SDK's
 * mocks (bench/registration-program.ts, a process per run, no engine), both as the package's `Vps` and as a
 * resource registering only the inputs given and the outputs that are not inputs; sizes and variants alternate over
 * `--rounds`; prints the medians and the CPU per VPS beyond the first.
 *
 * Run: `npm run bench -- registration [--fleet 500] [--rounds 5]`.
 */
import { execFileSync } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import { VPS_INPUT_NAMES, VPS_OUTPUT_ONLY } from "../provider/impl/fields/vps-fields.js";

export interface RegistrationBenchOptions {
  /** The larger program's VPS count. Default 500. */
  fleet?: number;
  /** Rounds per variant and size; the medians are printed. Default 5. */
  rounds?: number;
  print?: (line: string) => void;
}

const VARIANTS = {
  vps: `the package's Vps (${VPS_OUTPUT_ONLY.length + VPS_INPUT_NAMES.length} outputs)`,
  given: `the 7 inputs given + ${VPS_OUTPUT_ONLY.length} outputs only`,
} as const;
type Variant = keyof typeof VARIANTS;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function registrationCpuMs(variant: Variant, count: number): number {
  const program = path.join(__dirname, "registration-program.js");
  const out = execFileSync(process.execPath, [program, variant, String(count)], { encoding: "utf8" });
  return (JSON.parse(out.trim().split("\n").at(-1)!) as { cpuMs: number }).cpuMs;
}

export async function benchRegistration(options: RegistrationBenchOptions = {}): Promise<void> {
  const big = options.fleet ?? 500;
  const rounds = options.rounds ?? 5;
  const print = options.print ?? ((line: string) => console.log(line));
  const runs: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const variant of Object.keys(VARIANTS) as Variant[]) {
      for (const count of round % 2 ? [big, 1] : [1, big]) {
        (runs[`${variant} ${count}`] ??= []).push(registrationCpuMs(variant, count));
      }
    }
  }
  print(
    `registering 1 and ${big} VPSs under the SDK's mocks: CPU ms, median of ${rounds}; node ${process.version}`,
  );
  for (const [variant, label] of Object.entries(VARIANTS)) {
    const one = median(runs[`${variant} 1`]!);
    const many = median(runs[`${variant} ${big}`]!);
    print(
      `  ${label.padEnd(40)} 1: ${one.toFixed(0).padStart(5)}  ${big}: ${many.toFixed(0).padStart(6)}  ` +
        `per VPS beyond the first: ${((many - one) / (big - 1)).toFixed(2)} ms`,
    );
  }
  print(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  return Promise.resolve();
}
