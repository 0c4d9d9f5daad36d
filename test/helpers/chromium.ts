/**
 * Headless Chromium (Debian's `chromium` package; scripts/chromium.sh installs it) driven over the DevTools protocol,
 * through --remote-debugging-pipe: no port, no library, no browser download. The browser reads commands from its fd
 * 3 and writes answers and events on fd 4, each message JSON ended by a NUL byte. When this process ends, however it
 * ends, the kernel closes the pipe and Chromium quits.
 *
 *   const browser = await launchChromium(dir);    // dir: its profile, removed by the caller
 *   const page = await browser.newPage(1280, 900);
 *   await page.send("Page.navigate", { url });
 *   await browser.close();
 */
import { spawn, spawnSync } from "node:child_process";
import type { Readable, Writable } from "node:stream";

type Message = {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message: string };
};

/** The browser to run: $CHROMIUM, else `chromium` on PATH; undefined when there is none. */
export function findChromium(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  const found = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export interface Page {
  /** A command to the page's session; resolves to its result. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Every event of the page's session with this name, as they come. */
  on(method: string, listener: (params: Record<string, unknown>) => void): void;
  /** The value of a JavaScript expression in the page (awaited if it is a promise). */
  evaluate<T>(expression: string): Promise<T>;
}

export interface Browser {
  /** A new tab of this size in CSS pixels; `mobile` as a phone's browser lays it out (the page's viewport tag). */
  newPage(width: number, height: number, options?: { mobile?: boolean }): Promise<Page>;
  /** Closes the browser and waits for its process to end. */
  close(): Promise<void>;
}

export async function launchChromium(executable: string, profileDir: string): Promise<Browser> {
  const child = spawn(
    executable,
    [
      "--headless",
      "--remote-debugging-pipe",
      `--user-data-dir=${profileDir}`,
      // Tests talk only to loopback: no background traffic of the browser's own, and no name resolves but ours.
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-default-apps",
      "--no-first-run",
      "--no-default-browser-check",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      "--disable-gpu",
      // CI runs the tests as root, where Chromium's sandbox refuses to start; the page is our own, on loopback.
      ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
  );
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      stderr += String(error);
      resolve();
    });
  });

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, ((params: Record<string, unknown>) => void)[]>();
  let buffered = "";
  fromBrowser.on("data", (chunk: Buffer) => {
    const parts = (buffered + chunk.toString("utf8")).split("\0");
    buffered = parts.pop()!;
    for (const part of parts) {
      const message = JSON.parse(part) as Message & { sessionId?: string };
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(`Chromium: ${message.error.message}`));
        else waiter?.resolve(message.result);
      } else if (message.method) {
        for (const listener of listeners.get(`${message.sessionId ?? ""}:${message.method}`) ?? [])
          listener(message.params as Record<string, unknown>);
      }
    }
  });
  void exited.then(() => {
    for (const waiter of pending.values())
      waiter.reject(new Error(`Chromium exited; its last words: ${stderr}`));
    pending.clear();
  });

  const send = <T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  await send("Browser.getVersion");
  return {
    async newPage(width, height, options = {}) {
      const { targetId } = await send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await send<{ sessionId: string }>("Target.attachToTarget", {
        targetId,
        flatten: true,
      });
      const page: Page = {
        send: (method, params) => send(method, params, sessionId),
        on: (method, listener) =>
          listeners.set(`${sessionId}:${method}`, [
            ...(listeners.get(`${sessionId}:${method}`) ?? []),
            listener,
          ]),
        async evaluate<T>(expression: string) {
          const { result, exceptionDetails } = await page.send<{
            result: { value: T };
            exceptionDetails?: { text: string };
          }>("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
          if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.text} (${expression})`);
          return result.value;
        },
      };
      await page.send("Emulation.setDeviceMetricsOverride", {
        width,
        height,
        deviceScaleFactor: 1,
        mobile: options.mobile ?? false,
      });
      return page;
    },
    async close() {
      if (child.exitCode === null) {
        await send("Browser.close").catch(() => undefined);
        await exited;
      }
    },
  };
}
