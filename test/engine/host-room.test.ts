// Room on a host, judged for the whole run and blamed right (issue 35 item 4), through the real CLI on both front ends
// (the dynamic Vps in JavaScript, the native plugin in YAML). Three new VPSs of 4, 8 and 4 GB on a host with 10 GB
// free: the engine checks them in whatever order their registrations reach it, and every preview must name the same
// one to set aside (big), and pass without it. The rule and every order of checks in-process:
// test/provider/impl/host-room.test.ts, with four resizes on host 836 that fit three by three but not four named all
// four in every order; resizes on one host judged together through the CLI on both front ends: the
// fleet-resize-no-room case of test/engine/preview-cases.ts (preview-cases and native-preview-cases).
import { DEMO_ACCOUNTS } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import { describeCliOnly } from "./describe-cli";
import { describeNative } from "./native-programs";
import type { CaseProgram } from "./preview-cases";
import { closeLane, operate, startLane, type FrontEnd, type Lane, type Shown } from "./preview-lanes";

jest.setTimeout(20 * 60_000);

/**
 * How many previews of the same program each front end runs: 10, the 20 between the two. The order of checks
 * that varies between previews is the one engine's, the same for both, and every order is tried in-process
 * (test/provider/impl/host-room.test.ts); the bug this guards against named another VPS in 7 of 11 previews.
 */
const PREVIEWS = 10;

const vps = (name: string, memoryMb: number, hostServerOid: string) => ({
  domainName: `${name}.example.com`,
  dcLocation: "DCDALLAS",
  memoryMb,
  hostServerOid,
});
const NEW_ON_835: CaseProgram = {
  vpss: {
    "small-a": vps("small-a", 4096, "835"),
    big: vps("big", 8192, "835"),
    "small-b": vps("small-b", 4096, "835"),
  },
};

/** Another account's VPS on host 835 that leaves 10 GB of its memory free (beside the host's 2 GB reserve). */
async function leaveTenGbFreeOn835(lane: Lane): Promise<void> {
  const alice = createClient({ apiKey: DEMO_ACCOUNTS[1]!.apiKey, baseUrl: lane.emulator.baseUrl });
  try {
    await alice.createVps({
      instantiation_options: { domain_name: "filler.example.com", distro: "deb12.64" },
      dc_location: "DCDALLAS",
      host_server_oid: "835",
      vps_parameters: { memory_mb: 196608 - 2048 - 10240 },
    });
  } finally {
    alice.close();
  }
}

/** The room failure a preview showed (the one error line that carries the code), or "" when there is none. */
const roomError = (shown: Shown): string =>
  shown.diagnostics.map((d) => d.message).find((line) => line.includes("[RIMU_ERR_CONFLICT]")) ?? "";
const setAsideIn = (line: string): string | undefined => /Without (.*?) the rest fit/.exec(line)?.[1];
const failedOn = (line: string): string | undefined => /resource '([\w-]+)' has a problem/.exec(line)?.[1];

function scenarios(frontEnd: FrontEnd): void {
  let lane: Lane | undefined;
  const previews: Shown[] = [];
  let withoutBig: Shown;

  beforeAll(async () => {
    lane = await startLane(`host-room-${frontEnd}`, frontEnd);
    await leaveTenGbFreeOn835(lane);
    for (let i = 0; i < PREVIEWS; i++)
      previews.push(await operate(lane, NEW_ON_835, ["preview", "--parallel", "16"]));
    const { big: _big, ...rest } = NEW_ON_835.vpss;
    withoutBig = await operate(lane, { vpss: rest }, ["preview", "--parallel", "16"]);
  });

  afterAll(async () => {
    await closeLane(lane);
  });

  test(`4, 8 and 4 GB new on a host with 10 GB free: ${PREVIEWS} previews fail, each naming big to set aside`, () => {
    const seen = previews.map((shown) => ({
      failed: shown.failed,
      mutations: shown.mutations,
      setAside: setAsideIn(roomError(shown)),
    }));
    expect(seen).toEqual(previews.map(() => ({ failed: true, mutations: [], setAside: "big" })));
    for (const shown of previews) {
      const line = roomError(shown);
      expect(line).toMatch(/hostServerOid: host 835 has no room for this run's new VPSs on it together/);
      expect(line).toMatch(/leave big out of this run, or give it another host/);
      expect(line).not.toMatch(/more than one run|order's current state/);
    }
    // Which check found it is the engine's order; what it names is not. Recorded so the report can say how it varied.
    console.log(
      `${frontEnd}: the check that failed, by preview: ${previews.map((s) => failedOn(roomError(s))).join(" ")}`,
    );
  });

  test("without the one named, the preview passes", () => {
    expect({ failed: withoutBig.failed, error: roomError(withoutBig) }).toEqual({ failed: false, error: "" });
  });
}

describeCliOnly("host room on the dynamic Vps: the same VPSs named in every preview", () =>
  scenarios("dynamic"),
);
describeNative("yaml", "host room on the native plugin: the same VPSs named in every preview", () =>
  scenarios("native"),
);
