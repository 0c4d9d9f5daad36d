// Java programs on the native plugin through the real CLI: the Java SDK installed as a user installs the release's
// files (`mvn install:install-file` of the jar, sources jar and pom that tools/release/sdk-packages.ts builds), and a
// program made to run offline and lean. scripts/java-host.sh filled Maven's local repository (~/.m2) with everything
// these builds need, so Maven runs offline here (`.mvn/maven.config`: `--offline`).
//
// CPU: the Java host runs Maven twice per CLI command (`compile exec:java` for the program, and again for its plugin
// discovery), about 3.5 CPU-s each. useProgramJar() switches a program, once Maven has run it, to Pulumi.yaml's
// `binary:` option: the host then runs `java -jar` on a launcher jar (its manifest's Class-Path names Maven's compiled
// classes and the dependencies' jars in ~/.m2), about 0.7 CPU-s a run, and `mvn -o compile` after an edit refreshes
// the classes it runs.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { buildJavaSdk, javaArtifact } from "../../tools/release/sdk-packages";

const run = promisify(execFile);

/** The plugin `mvn install:install-file` runs as, named in full (Maven 3.8's default is 2.4); docs/java.md's too. */
export const MAVEN_INSTALL_PLUGIN = "org.apache.maven.plugins:maven-install-plugin:3.1.3";

/** The plugin that prints a program's classpath (scripts/java-host.sh resolves it once). */
export const MAVEN_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";

async function mvn(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run("mvn", ["-B", "-q", "-o", ...args], { cwd: dir }).catch(
    (e: Error & { stdout?: string }) => {
      throw new Error(
        `mvn ${args.join(" ")} in ${dir} failed (offline; scripts/java-host.sh fills ~/.m2):\n${e.stdout ?? e.message}`,
      );
    },
  );
  return stdout;
}

/**
 * Builds the Java SDK's release files from sdk/java into `outDir` (the release's own build step) and installs them
 * into Maven's local repository as docs/java.md tells a user to. Returns the installed version.
 */
export async function installJavaSdk(outDir: string): Promise<string> {
  const files = await buildJavaSdk(outDir);
  await mvn(outDir, [
    `${MAVEN_INSTALL_PLUGIN}:install-file`,
    `-Dfile=${files.jar}`,
    `-Dsources=${files.sources}`,
    `-DpomFile=${files.pom}`,
  ]);
  return javaArtifact(fs.readFileSync(files.pom, "utf8")).version;
}

/** Maven offline in `dir` for every `mvn` the Java host starts there (Maven reads .mvn/maven.config). */
export function mavenOffline(dir: string): void {
  fs.mkdirSync(path.join(dir, ".mvn"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".mvn", "maven.config"), "--offline\n");
}

/** `mvn -o compile` in the program's directory: after an edit of its sources, the launcher jar runs the new classes. */
export const compileProgram = (dir: string): Promise<string> => mvn(dir, ["compile"]);

/** A manifest header's lines: at most 72 bytes each, continued by a space (the JAR format's rule). */
function manifestLines(header: string): string {
  const lines = [header.slice(0, 72)];
  for (let at = 72; at < header.length; at += 71) lines.push(` ${header.slice(at, at + 71)}`);
  return lines.join("\r\n");
}

/**
 * Points the Maven program in `dir` at a launcher jar (Pulumi.yaml's `runtime: options: binary:`): Maven compiles
 * it and prints its classpath once; the jar holds only a manifest naming the main class and that classpath, so the
 * host runs `java -jar` and no Maven.
 */
export async function useProgramJar(dir: string, mainClass: string): Promise<void> {
  const classpathFile = path.join(dir, "target", "classpath.txt");
  await mvn(dir, [
    "compile",
    `${MAVEN_DEPENDENCY_PLUGIN}:build-classpath`,
    `-Dmdep.outputFile=${classpathFile}`,
  ]);
  const entries = [
    path.join(dir, "target", "classes") + path.sep,
    ...fs.readFileSync(classpathFile, "utf8").trim().split(path.delimiter),
  ];
  // pathToFileURL keeps a directory's trailing slash, which marks it a directory of classes (not a jar).
  const urls = entries.map((entry) => pathToFileURL(entry).href);
  const manifest = path.join(dir, "target", "MANIFEST.MF");
  fs.writeFileSync(
    manifest,
    [
      "Manifest-Version: 1.0",
      `Main-Class: ${mainClass}`,
      manifestLines(`Class-Path: ${urls.join(" ")}`),
      "",
      "",
    ].join("\r\n"),
  );
  const empty = path.join(dir, "target", "launcher");
  fs.mkdirSync(empty, { recursive: true });
  await run("jar", [
    "--create",
    "--file",
    path.join(dir, "target", "program.jar"),
    "--manifest",
    manifest,
    "-C",
    empty,
    ".",
  ]);
  const project = path.join(dir, "Pulumi.yaml");
  fs.writeFileSync(
    project,
    fs
      .readFileSync(project, "utf8")
      .replace(/^runtime: java$/m, "runtime:\n  name: java\n  options:\n    binary: target/program.jar"),
  );
}
