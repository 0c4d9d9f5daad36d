/**
 * kill -9 trials for the emulator's state file: start the real CLI on a state file, send a stream of
 * creates (and power-offs of created orders) from several clients at once, SIGKILL the process at a
 * random moment, restart it on the same file, and check that every acknowledged order and change is
 * there and that no new order gets an acknowledged id.
 *
 *   npm run build && node dist/tools/emulator-kill-trials.js [trials=30]
 *
 * Prints one line per trial and a total: "lost" counts acknowledged creates or power-offs missing
 * after the restart, "reused" counts new orders that got an id acknowledged before the kill.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type TetheredChild, spawnTethered } from "../test/helpers/tethered-child.js";

/** The repository root, from the source (tools) or the built copy (dist/tools). */
const ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? "../.." : "..");
/**
 * The built CLI on purpose: the subject is the program users run (`rimuhosting-emulator`), as a child
 * process that can be SIGKILLed mid-write (needs `npm run build`).
 */
const CLI = path.join(ROOT, "dist/emulator/cli.js");
const AUTH = { authorization: "rimuhosting apikey=10000000000000000000000000000001" };

export interface KillTrialResult {
  acknowledgedCreates: number;
  acknowledgedStops: number;
  lost: number;
  reused: number;
  killedAfterMs: number;
}

interface Started {
  child: TetheredChild;
  baseUrl: string;
}

function startCli(stateFile: string): Promise<Started> {
  const child = spawnTethered(
    CLI,
    ["--state-file", stateFile, "--time-scale", "0", "--port", "0", "--quiet"],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: "" },
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += String(chunk)));
    child.stdout.on("data", (chunk: Buffer) => {
      out += String(chunk);
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve({ child, baseUrl: match[1]! });
    });
    child.once("exit", (code) => reject(new Error(`emulator exited (${code}) before listening: ${err}`)));
    child.once("error", reject);
  });
}

function killed(child: TetheredChild): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

async function createOrder(baseUrl: string, domain: string): Promise<number> {
  const res = await fetch(`${baseUrl}/orders/new-vps`, {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json" },
    body: JSON.stringify({ new_order_request: { instantiation_options: { domain_name: domain } } }),
  });
  const body = (await res.json()) as {
    post_new_vps_response?: { about_order: { order_oid: number } };
    jaxrs_response?: { human_readable_message?: string };
  };
  if (res.status !== 200 || !body.post_new_vps_response) {
    // The emulator's own words with the status: a 409 once failed a trial, and the status alone could not say why.
    const said = body.jaxrs_response?.human_readable_message ?? JSON.stringify(body).slice(0, 300);
    throw new Error(`create answered ${res.status}: ${said}`);
  }
  return body.post_new_vps_response.about_order.order_oid;
}

async function stopOrder(baseUrl: string, oid: number): Promise<void> {
  const res = await fetch(`${baseUrl}/orders/order-${oid}-x/vps/running-state`, {
    method: "PUT",
    headers: { ...AUTH, "content-type": "application/json" },
    body: JSON.stringify({ running_state_change_request: { running_state: "NOTRUNNING" } }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`power-off answered ${res.status}`);
}

async function listAll(baseUrl: string): Promise<Map<number, string>> {
  const res = await fetch(`${baseUrl}/orders;include_inactive=Y`, { headers: AUTH });
  const body = (await res.json()) as {
    get_orders_response: { about_orders: { order_oid: number; running_state: string }[] };
  };
  return new Map(body.get_orders_response.about_orders.map((o) => [o.order_oid, o.running_state]));
}

/** One trial in a fresh directory; `random` picks the moment of the kill. */
export async function runKillTrial(random: () => number = Math.random): Promise<KillTrialResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "rimu-kill-"));
  const stateFile = path.join(dir, "state.json");
  const created = new Set<number>();
  const stopped = new Set<number>();
  try {
    const first = await startCli(stateFile);
    let dead = false;
    let firstAcknowledged!: () => void;
    const started = new Promise<void>((resolve) => (firstAcknowledged = resolve));
    const client = async (id: number) => {
      for (let i = 0; !dead; i++) {
        try {
          const oid = await createOrder(first.baseUrl, `c${id}-${i}.example.com`);
          created.add(oid);
          firstAcknowledged();
          if (i % 3 === 0) {
            await stopOrder(first.baseUrl, oid);
            stopped.add(oid);
          }
        } catch {
          return; // the process is gone: whatever was not answered was not acknowledged
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, id) => client(id));
    // The kill falls at a random moment once the stream is flowing (at least one create answered).
    await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    const killedAfterMs = Math.round(random() * 600);
    await new Promise((resolve) => setTimeout(resolve, killedAfterMs));
    dead = true;
    await killed(first.child);
    await Promise.all(clients);

    const second = await startCli(stateFile);
    try {
      const after = await listAll(second.baseUrl);
      let lost = 0;
      for (const oid of created) if (!after.has(oid)) lost++;
      for (const oid of stopped) if (after.get(oid) !== "NOTRUNNING") lost++;
      let reused = 0;
      for (let i = 0; i < 5; i++) {
        if (created.has(await createOrder(second.baseUrl, `after-${i}.example.com`))) reused++;
      }
      return {
        acknowledgedCreates: created.size,
        acknowledgedStops: stopped.size,
        lost,
        reused,
        killedAfterMs,
      };
    } finally {
      await killed(second.child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const trials = Number(process.argv[2] ?? 30);
  let lost = 0;
  let reused = 0;
  let acknowledged = 0;
  let failedTrials = 0;
  for (let t = 1; t <= trials; t++) {
    const r = await runKillTrial();
    lost += r.lost;
    reused += r.reused;
    acknowledged += r.acknowledgedCreates + r.acknowledgedStops;
    if (r.lost > 0 || r.reused > 0) failedTrials++;
    console.log(
      `trial ${t}: killed ${r.killedAfterMs} ms after the first answer; acknowledged ${r.acknowledgedCreates} creates, ` +
        `${r.acknowledgedStops} power-offs; lost ${r.lost}, reused ids ${r.reused}`,
    );
  }
  console.log(
    `${trials} trials: ${trials - failedTrials} clean; ${acknowledged} acknowledged changes, lost ${lost}, reused ids ${reused}`,
  );
  if (lost > 0 || reused > 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
