/**
 * A PostgreSQL server with TLS, for the pages' `sslmode=require` and `sslmode=verify-full`: the tests' server has
 * none (scripts/backend-servers.sh starts it without), so this front takes its place on a port of its own. It does
 * what a server with `ssl = on` does at the start of a connection: it answers the client's SSLRequest with `S`, takes
 * the TLS handshake with a certificate for 127.0.0.1 signed by a CA made here (`openssl`), and from then on passes the
 * connection's bytes, decrypted, to the tests' server and back. A client that asks for no TLS (`sslmode=disable`) is
 * passed on as it is, as such a server would let it in.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import * as tls from "node:tls";

/** The first message of a client that wants TLS: its length (8) and the code 80877103 (PostgreSQL's protocol). */
const SSL_REQUEST_CODE = 80877103;

export interface TlsFront {
  /** The front's port on 127.0.0.1. */
  port: number;
  /** The file of the CA certificate that signed the front's: what `sslrootcert=` names for `verify-full`. */
  caFile: string;
  /** A CA that signed nothing here: `verify-full` against it must refuse the front. */
  otherCaFile: string;
  /** How many connections took the TLS handshake so far. */
  secured(): number;
  close(): Promise<void>;
}

/** A CA (its key and certificate) in `dir`, named `name`. */
function makeCa(dir: string, name: string): { key: string; cert: string } {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
    "-subj", `/CN=${name}`, "-keyout", key, "-out", cert,
  ], { stdio: "pipe" }); // prettier-ignore
  return { key, cert };
}

/** The server's key and certificate for 127.0.0.1 (its IP address in subjectAltName), signed by `ca`. */
function makeServerCertificate(
  dir: string,
  ca: { key: string; cert: string },
): { key: string; cert: string } {
  const key = path.join(dir, "server.key");
  const request = path.join(dir, "server.csr");
  const cert = path.join(dir, "server.pem");
  const extensions = path.join(dir, "server.ext");
  fs.writeFileSync(extensions, "subjectAltName = IP:127.0.0.1\n");
  execFileSync("openssl", [
    "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
    "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", request,
  ], { stdio: "pipe" }); // prettier-ignore
  execFileSync("openssl", [
    "x509", "-req", "-in", request, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-days", "2",
    "-extfile", extensions, "-out", cert,
  ], { stdio: "pipe" }); // prettier-ignore
  return { key, cert };
}

/** Passes `a`'s bytes to `b` and back, and ends each when the other ends or fails. */
function join(a: net.Socket, b: net.Socket): void {
  a.pipe(b).pipe(a);
  for (const [one, other] of [
    [a, b],
    [b, a],
  ] as const) {
    one.on("error", () => other.destroy());
    one.on("close", () => other.destroy());
  }
}

/** Starts a TLS front on 127.0.0.1 for the PostgreSQL server at `server` (its host and port); `dir` holds its keys. */
export async function startTlsFront(server: { host: string; port: number }, dir: string): Promise<TlsFront> {
  fs.mkdirSync(dir, { recursive: true });
  const ca = makeCa(dir, "rimu-test-ca");
  const other = makeCa(dir, "other-ca");
  const certificate = makeServerCertificate(dir, ca);
  const context = tls.createSecureContext({
    key: fs.readFileSync(certificate.key),
    cert: fs.readFileSync(certificate.cert),
  });
  const sockets = new Set<net.Socket>();
  let secured = 0;
  const front = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    client.once("data", (first: Buffer) => {
      client.pause();
      const upstream = net.connect(server.port, server.host);
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      if (first.length === 8 && first.readInt32BE(0) === 8 && first.readInt32BE(4) === SSL_REQUEST_CODE) {
        client.write("S");
        const secure = new tls.TLSSocket(client, { isServer: true, secureContext: context });
        secure.once("secure", () => secured++);
        join(secure, upstream);
      } else {
        upstream.write(first);
        join(client, upstream);
        client.resume();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", reject);
    front.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (front.address() as net.AddressInfo).port,
    caFile: ca.cert,
    otherCaFile: other.cert,
    secured: () => secured,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        front.close(() => resolve());
      }),
  };
}
