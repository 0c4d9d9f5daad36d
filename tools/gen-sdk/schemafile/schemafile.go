// Package schemafile is what tools/gen-sdk and tools/gen-sdk/java share: reading and binding a package schema, the
// loader that refuses every other package, and writing a generator's files. It is a module of its own, which both
// require through a `replace`, because the two are separate modules on different pkg/v3 releases (gen-sdk-java's
// generator compiles only against an older one: tools/gen-sdk/java/main.go); its go.mod requires the older, so each
// builds it against its own pkg/v3.
package schemafile

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// NoOtherPackages answers the binder's and the generators' requests for other packages' schemas. The schema
// references no other package, so any such request is a mistake in the schema, reported as an error.
type NoOtherPackages struct{}

func (NoOtherPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, refused(name)
}

func (NoOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refused(d.Name)
}

func (NoOtherPackages) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refused(name)
}

func (NoOtherPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refused(d.Name)
}

func refused(name string) error {
	return fmt.Errorf("the schema refers to package %q: gen-sdk generates SDKs of self-contained schemas only", name)
}

// Read reads the package schema at path.
func Read(path string) (schema.PackageSpec, error) {
	var spec schema.PackageSpec
	raw, err := os.ReadFile(path)
	if err != nil {
		return spec, err
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return spec, fmt.Errorf("%s is not a package schema: %w", path, err)
	}
	return spec, nil
}

// Bind binds the schema read from path strictly (a reference to a type or package not in it is an error, one line
// each) and, when version is not empty, gives the package that version instead of the schema's.
func Bind(spec schema.PackageSpec, path, version string) (*schema.Package, error) {
	pkg, diags, err := schema.BindSpec(spec, NoOtherPackages{}, schema.ValidationOptions{})
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

// Write empties dir and writes a generator's files into it, by their slash-separated paths.
func Write(dir string, files map[string][]byte) error {
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
