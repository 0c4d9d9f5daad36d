// gen-sdk-java writes the Java SDK of a package schema with pulumi-java's code generator
// (github.com/pulumi/pulumi-java/pkg/codegen/java, the module of the Java language host scripts/java-host.sh builds),
// and a Maven pom.xml (pom.go). tools/gen-sdk runs it for `java`; it is a module of its own because pulumi-java
// v1.22.0 compiles against pkg/v3 v3.228.0 and not against the v3.259.0 the other generators are on (pkg/v3 renamed
// schema.Parameterization's BaseProvider and dropped pcl.Resource's DecomposeToken in between).
//
//	gen-sdk-java [-version <semver>] -java-sdk-version <semver> <schema.json> <outdir>
//
// <outdir> is emptied first, as tools/gen-sdk does for each language.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generated-file headers give, as tools/gen-sdk's.
const tool = "pulumi-gen-rimuhosting"

// noOtherPackages refuses every other package: the schema is self-contained (as in tools/gen-sdk).
type noOtherPackages struct{}

func (noOtherPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, refused(name)
}

func (noOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refused(d.Name)
}

func (noOtherPackages) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refused(name)
}

func (noOtherPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refused(d.Name)
}

func refused(name string) error {
	return fmt.Errorf("the schema refers to package %q: gen-sdk generates SDKs of self-contained schemas only", name)
}

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
	if err := write(dir, files); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "gen-sdk: java: %d files in %s (%s)\n", len(files), dir,
		time.Since(started).Round(time.Millisecond))
}

func bind(path, version string) (*schema.Package, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s is not a package schema: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if diags.HasErrors() {
		var problems []string
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				problems = append(problems, "  "+strings.TrimSuffix(d.Summary+"; "+d.Detail, "; "))
			}
		}
		return nil, fmt.Errorf("%s is not a valid package schema:\n%s", path, strings.Join(problems, "\n"))
	}
	if version != "" {
		v, err := semver.ParseTolerant(version)
		if err != nil {
			return nil, fmt.Errorf("-version %q is not a semantic version: %w", version, err)
		}
		pkg.Version = &v
	}
	return pkg, nil
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen-sdk-java:", err)
	os.Exit(1)
}
