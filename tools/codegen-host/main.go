// codegen-host gives a language host that predates code generation the GenerateProgram RPC that `pulumi import`
// asks for to write the code of what it imported. The language hosts that can be built from the Go module proxy for
// Node.js, Go and Python (scripts/language-hosts.sh) lack it; the hosts a user's CLI bundles have it, and run
// Pulumi's program generators (github.com/pulumi/pulumi/pkg/v3 codegen, here at the CLI's release) as this does.
//
//	codegen-host <nodejs|go|python> <the real host's executable> [the host's arguments...]
//
// It starts the real host with the arguments the engine gave, serves GenerateProgram itself, and passes every other
// call through to the real host unchanged, byte for byte. scripts/codegen-hosts.sh builds it and writes the
// `pulumi-language-<language>` wrappers the tests put first on PATH; see tools/codegen-host/README.md.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"

	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

type generator func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

var generators = map[string]generator{
	"nodejs": nodejs.GenerateProgram,
	"go":     gogen.GenerateProgram,
	"python": python.GenerateProgram,
}

// frame is a message passed through as its bytes; codec reads and writes frames as they are, and protobuf
// messages (GenerateProgram's) as protobuf.
type frame struct{ payload []byte }

type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if f, ok := v.(*frame); ok {
		return f.payload, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (codec) Unmarshal(data []byte, v any) error {
	if f, ok := v.(*frame); ok {
		f.payload = append([]byte(nil), data...)
		return nil
	}
	return proto.Unmarshal(data, v.(proto.Message))
}

func (codec) Name() string { return "proto" }

// generateProgram is what current language hosts do for GenerateProgram: bind the PCL program against the
// engine's schema loader, then run the language's program generator.
func generateProgram(gen generator, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	parser := syntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiags}, nil
	}
	files, diags, err := gen(program)
	if err != nil {
		return nil, err
	}
	rpcDiags = append(rpcDiags, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiags}, nil
}

// passThrough forwards a call of any method to the real host, frames in both directions.
func passThrough(conn *grpc.ClientConn) grpc.StreamHandler {
	return func(_ any, server grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(server)
		in, _ := metadata.FromIncomingContext(server.Context())
		out := metadata.MD{}
		for key, values := range in {
			if !strings.HasPrefix(key, ":") && key != "content-type" && key != "user-agent" {
				out[key] = values
			}
		}
		ctx, cancel := context.WithCancel(metadata.NewOutgoingContext(server.Context(), out))
		defer cancel()
		client, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method)
		if err != nil {
			return err
		}
		go func() {
			for {
				f := &frame{}
				if err := server.RecvMsg(f); err != nil {
					_ = client.CloseSend()
					return
				}
				if err := client.SendMsg(f); err != nil {
					return
				}
			}
		}()
		for first := true; ; first = false {
			f := &frame{}
			err := client.RecvMsg(f)
			if first {
				if header, herr := client.Header(); herr == nil {
					_ = server.SendHeader(header)
				}
			}
			if err == io.EOF {
				server.SetTrailer(client.Trailer())
				return nil
			}
			if err != nil {
				server.SetTrailer(client.Trailer())
				return err
			}
			if err := server.SendMsg(f); err != nil {
				return err
			}
		}
	}
}

func main() {
	if len(os.Args) < 3 || generators[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: codegen-host <nodejs|go|python> <host executable> [host arguments...]")
		os.Exit(2)
	}
	gen := generators[os.Args[1]]
	// The real host dies with this process (the engine kills the host it started: this one).
	runtime.LockOSThread()
	host := exec.Command(os.Args[2], os.Args[3:]...)
	host.Stderr = os.Stderr
	host.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := host.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := host.Start(); err != nil {
		fail(err)
	}
	lines := bufio.NewReader(stdout)
	port, err := lines.ReadString('\n')
	if err != nil {
		fail(fmt.Errorf("%s printed no port: %w", os.Args[2], err))
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(codec{}), grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
	if err != nil {
		fail(err)
	}
	server := grpc.NewServer(
		grpc.ForceServerCodec(codec{}),
		grpc.UnknownServiceHandler(passThrough(conn)),
		grpc.MaxRecvMsgSize(1<<30), grpc.MaxSendMsgSize(1<<30))
	server.RegisterService(&grpc.ServiceDesc{
		ServiceName: "pulumirpc.LanguageRuntime",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "GenerateProgram",
			Handler: func(_ any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				req := &pulumirpc.GenerateProgramRequest{}
				if err := dec(req); err != nil {
					return nil, err
				}
				return generateProgram(gen, req)
			},
		}},
	}, struct{}{})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	fmt.Printf("%d\n", listener.Addr().(*net.TCPAddr).Port)
	go func() { _, _ = io.Copy(os.Stdout, lines) }()
	go func() {
		_ = host.Wait()
		server.Stop()
	}()
	if err := server.Serve(listener); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "codegen-host: %v\n", err)
	os.Exit(1)
}
