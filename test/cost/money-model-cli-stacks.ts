// The stacks the money model's cases run on through the real CLI (money-model-cli.ts), in a file backend: what a
// stack's state holds (read from its checkpoint file, without a CLI process per stack and run), the budget's
// settings in its config, and a pool of stacks each made once and put back as `stack init` left them before a case.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { BUDGET_ENV_VARS, ENV_VARS } from "../../provider/config";
import { BUDGET_SETTINGS } from "../../provider/impl/budget/budget";
import type { Settings } from "./judges";
import type { FrontEnd } from "./money-model-cli-front-ends";
import type { TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "../engine/cli-stack";

/** What a stack's state holds: the order of each VPS by name, and every order it records (pending deletes too). */
export interface StateSeen {
  held: Map<string, number>;
  oids: Set<number>;
}

/** A stack's checkpoint in the file backend. */
const checkpointFile = (backendDir: string, front: FrontEnd, stack: string) =>
  path.join(backendDir, ".pulumi", "stacks", front.project, `${stack}.json`);

/**
 * A stack's state, from its checkpoint in the file backend: what `pulumi stack export` prints, without a CLI
 * process per stack and run.
 */
export function stateOf(backendDir: string, front: FrontEnd, stack: string): StateSeen {
  const file = checkpointFile(backendDir, front, stack);
  const seen: StateSeen = { held: new Map(), oids: new Set() };
  if (!fs.existsSync(file)) return seen;
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as {
    checkpoint?: {
      latest?: {
        resources?: {
          urn: string;
          type: string;
          id?: string;
          delete?: boolean;
          outputs?: { orderOid?: unknown };
        }[];
      };
    };
  };
  for (const r of state.checkpoint?.latest?.resources ?? []) {
    if (r.type !== front.type) continue;
    const oid = typeof r.outputs?.orderOid === "number" ? r.outputs.orderOid : Number(r.id);
    if (!Number.isFinite(oid) || oid <= 0) continue;
    seen.oids.add(oid);
    if (!r.delete) seen.held.set(r.urn.split("::").pop()!, oid);
  }
  return seen;
}

/** The budget's settings in the stack config: those of `settings` set, the others removed. */
export async function setBudget(cli: CliStack, settings: Settings): Promise<void> {
  const set = Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [`rimuhosting:${key}`, value!]),
  );
  await cli.setConfigs(set);
  await cli.removeConfigs(
    BUDGET_SETTINGS.filter((key) => !(key in settings)).map((key) => `rimuhosting:${key}`),
  );
}

/** The environment every stack's commands get: the key (no `config set-all` process), no budget from outside. */
const ENV: NodeJS.ProcessEnv = {
  [ENV_VARS.apiKey]: DEMO_API_KEY,
  ...Object.fromEntries(Object.values(BUDGET_ENV_VARS).map((name) => [name, ""])),
};

/**
 * The stacks a front end's cases run on, each made once (`pulumi stack init`, the emulator's address in its config)
 * and put back before each case as that left it: its checkpoint in the file backend (with the backend's attributes
 * file beside it) and its settings file. A fresh stack to the engine, without a `stack init` process per stack and
 * case (about 0.3 CPU-s each, 60 of them).
 */
export class StackPool {
  private readonly made: { cli: CliStack; files: [string, Buffer][] }[] = [];

  constructor(
    private readonly front: FrontEnd,
    private readonly emu: TestEmulator,
    private readonly backendDir: string,
  ) {}

  /** `count` stacks, each as `stack init` left it. */
  async fresh(count: number): Promise<CliStack[]> {
    while (this.made.length < count) {
      const cli = await CliStack.create({
        programDir: this.front.programDir(),
        stackName: `s${this.made.length}`,
        backendDir: this.backendDir,
        env: ENV,
        config: { "rimuhosting:baseUrl": this.emu.baseUrl },
      });
      const checkpoint = checkpointFile(this.backendDir, this.front, cli.name);
      const files = [checkpoint, `${checkpoint}.attrs`, path.join(cli.programDir, `Pulumi.${cli.name}.yaml`)];
      this.made.push({ cli, files: files.map((file) => [file, fs.readFileSync(file)]) });
    }
    const taken = this.made.slice(0, count);
    for (const { files } of taken) for (const [file, bytes] of files) fs.writeFileSync(file, bytes);
    return taken.map(({ cli }) => cli);
  }

  close(): void {
    for (const { cli } of this.made) cli.close();
  }
}
