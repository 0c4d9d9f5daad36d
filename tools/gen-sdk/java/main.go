// gen-sdk-java writes the Java SDK of a package schema with pulumi-java's code generator
// (github.com/pulumi/pulumi-java/pkg/codegen/java, the module of the Java language host scripts/java-host.sh builds),
// and a Maven pom.xml (pom.go). tools/gen-sdk runs it for `java`; it is a module of its own because pulumi-java
// v1.22.0 compiles against pkg/v3 v3.228.0 and not against the v3.259.0 the other generators are on (pkg/v3 renamed
// schema.Parameterization's BaseProvider and dropped pcl.Resource's DecomposeToken in between). What it shares with
// tools/gen-sdk (reading and binding the schema, writing the files) is package schemafile, a module both replace in.
//
//	gen-sdk-java [-version <semver>] -java-sdk-version <semver> <schema.json> <outdir>
//
// <outdir> is emptied first, as tools/gen-sdk does for each language.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/blang/semver"
	"github.com/pulumi-rimuhosting/pulumi-rimuhosting/tools/gen-sdk/schemafile"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generated-file headers give, as tools/gen-sdk's.
const tool = "pulumi-gen-rimuhosting"

func main() {
	flags := flag.NewFlagSet("gen-sdk-java", flag.ExitOnError)
	version := flags.String("version", "", "the package version to write into the SDK (overrides the schema's)")
	javaSdk := flags.String("java-sdk-version", "", "the release of Maven's com.pulumi:pulumi the SDK requires")
	flags.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gen-sdk-java [-version <semver>] -java-sdk-version <semver> <schema.json> <outdir>")
		flags.PrintDefaults()
	}
	_ = flags.Parse(os.Args[1:])
	if flags.NArg() != 2 || *javaSdk == "" {
		flags.Usage()
		os.Exit(2)
	}
	if _, err := semver.Parse(*javaSdk); err != nil {
		fail(fmt.Errorf("-java-sdk-version %q is not a semantic version: %w", *javaSdk, err))
	}
	schemaPath, dir := flags.Arg(0), flags.Arg(1)
	started := time.Now()
	pkg, err := bind(schemaPath, *version)
	if err != nil {
		fail(err)
	}
	files, err := generateJava(pkg, *javaSdk)
	if err != nil {
		fail(err)
	}
	if err := schemafile.Write(dir, files); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "gen-sdk: java: %d files in %s (%s)\n", len(files), dir,
		time.Since(started).Round(time.Millisecond))
}

func bind(path, version string) (*schema.Package, error) {
	spec, err := schemafile.Read(path)
	if err != nil {
		return nil, err
	}
	return schemafile.Bind(spec, path, version)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen-sdk-java:", err)
	os.Exit(1)
}
