module github.com/pulumi-rimuhosting/pulumi-rimuhosting/tools/gen-sdk/schemafile

go 1.25.11

// The older of the two pkg/v3 releases its users are on (tools/gen-sdk/java's): each user's own pin wins.
require (
	github.com/blang/semver v3.5.1+incompatible
	github.com/hashicorp/hcl/v2 v2.24.0
	github.com/pulumi/pulumi/pkg/v3 v3.228.0
)
