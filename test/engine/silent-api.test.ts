// A base URL that accepts connections and never answers, and one whose listener never accepts (its accept queue is
// full, as behind a firewall that drops connection attempts), through the real CLI on both front ends. The preview
// fails with [RIMU_ERR_TIMEOUT] naming rimuhosting:baseUrl and the read timeout that governs the wait
// (RIMUHOSTING_READ_TIMEOUT_MS, short here, 30 s by default) after one wait, instead of passing with warnings after
// four waits per read; `up` fails the same way, sends nothing, and never says that a change may still be running.
// The two are told apart: only the first got the request.
import * as net from "node:net";
import { neverAcceptingListener } from "../helpers/never-accepting";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import { describeNative, pulumiFailure, startNativeScenario, writeYamlProgram } from "./native-programs";

jest.setTimeout(300_000);

const READ_TIMEOUT_MS = 3_000;
const ENV = { RIMUHOSTING_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS) };

/** A TCP server on 127.0.0.1 that accepts every connection, keeps what it is sent, and never answers. */
async function silentServer(): Promise<{ url: string; received(): string; close(): void }> {
  const sockets = new Set<net.Socket>();
  let received = "";
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Preview, then `up`, of the scenario's stack against a silent base URL: both fail at once, naming it. */
async function againstSilentApi(s: Scenario): Promise<void> {
  const silent = await silentServer();
  try {
    await s.stack.setConfig("rimuhosting:baseUrl", `${silent.url}/r`);
    const said =
      `[RIMU_ERR_TIMEOUT] rimuhosting:baseUrl: nothing answered at ${silent.url}/r within ${READ_TIMEOUT_MS / 1000} s ` +
      `(the read timeout, RIMUHOSTING_READ_TIMEOUT_MS): GET ${silent.url}/r/`;

    const preview = await pulumiFailure(s.stack.cli!, "preview");
    expect(preview).toContain(said);
    expect(preview).not.toMatch(/did not run/); // no check skipped with a warning

    const up = await pulumiFailure(s.stack.cli!, "up", "--yes", "--skip-preview");
    expect(up).toContain(said);
    expect(up).toContain("Nothing was changed.");
    expect(up).not.toMatch(/may still be/);
    expect(silent.received()).not.toMatch(/^(POST|PUT|DELETE) /m);
  } finally {
    silent.close();
  }
}

/** Preview and `up` against an address that never takes a connection: both fail, saying nothing was sent. */
async function againstNeverAcceptingApi(s: Scenario): Promise<void> {
  const listener = await neverAcceptingListener();
  try {
    await s.stack.setConfig("rimuhosting:baseUrl", `${listener.url}/r`);
    const said =
      `[RIMU_ERR_TIMEOUT] rimuhosting:baseUrl: nothing at ${listener.url}/r took the connection within ` +
      `${READ_TIMEOUT_MS / 1000} s (the read timeout, RIMUHOSTING_READ_TIMEOUT_MS), so GET ${listener.url}/r/`;
    for (const output of [
      await pulumiFailure(s.stack.cli!, "preview"),
      await pulumiFailure(s.stack.cli!, "up", "--yes", "--skip-preview"),
    ]) {
      expect(output).toContain(said);
      expect(output).toContain("Nothing was changed.");
      expect(output).not.toMatch(/accepted|was sent|may still be|did not run|Vps `?timeouts/);
    }
  } finally {
    await listener.close();
  }
}

describeCliOnly("a base URL that never answers, dynamic Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario("lifecycle", { env: ENV });
  });
  afterAll(async () => s?.close());

  test("fails the preview and up at once with [RIMU_ERR_TIMEOUT] naming rimuhosting:baseUrl", async () => {
    await againstSilentApi(s);
  });

  test("a listener that never accepts: no connection, nothing sent, the read timeout named", async () => {
    await againstNeverAcceptingApi(s);
  });
});

describeNative("yaml", "a base URL that never answers, native plugin", () => {
  let s: Scenario;
  beforeAll(async () => {
    const program = writeYamlProgram(
      "silent-api",
      `resources:
  app:
    type: rimuhosting:Vps
    properties:
      domainName: silent.example.com
      dcLocation: DCDALLAS
`,
    );
    s = await startNativeScenario(program, { env: ENV });
  });
  afterAll(async () => s?.close());

  test("fails the preview and up at once with [RIMU_ERR_TIMEOUT] naming rimuhosting:baseUrl", async () => {
    await againstSilentApi(s);
  });

  test("a listener that never accepts: no connection, nothing sent, the read timeout named", async () => {
    await againstNeverAcceptingApi(s);
  });
});
