// A minimal native provider on pulumi-go-provider, the point of comparison for `npm run bench -- plugin`
// (bench/plugin.ts): how soon a small Go provider answers the engine's first call. One resource, a Greeting,
// so the provider has a schema; the bench only calls GetPluginInfo.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/pulumi/pulumi-go-provider/infer"
)

func main() {
	provider, err := infer.NewProviderBuilder().WithResources(infer.Resource(Greeting{})).Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := provider.Run(context.Background(), "benchgo", "0.1.0"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Greeting is the provider's one resource.
type Greeting struct{}

// GreetingArgs are its inputs.
type GreetingArgs struct {
	Name string `pulumi:"name"`
}

// GreetingState is what it records.
type GreetingState struct {
	GreetingArgs
	Message string `pulumi:"message"`
}

// Create says hello.
func (Greeting) Create(
	_ context.Context, req infer.CreateRequest[GreetingArgs],
) (infer.CreateResponse[GreetingState], error) {
	state := GreetingState{GreetingArgs: req.Inputs, Message: "Hello, " + req.Inputs.Name}
	return infer.CreateResponse[GreetingState]{ID: req.Name, Output: state}, nil
}
