module go-quickstart

go 1.25.11

require (
	github.com/pulumi-rimuhosting/pulumi-rimuhosting/sdk v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
