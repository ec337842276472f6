// Command hands serves Hands's tools over MCP, or runs them from the command
// line. See "hands help".
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/hands-dev/hands/internal/gcpace"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		// A second signal ends the process at once.
		signal.Stop(sigs)
		cancel(errors.New("received " + signalName(sig)))
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	cancel(nil)
	os.Exit(code)
}

// signalName names the signals serve stops on as a shell does.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// Exit codes.
const (
	exitOK    = 0
	exitTool  = 1
	exitUsage = 2
)

const usage = `hands — the tools a coding agent calls, as one sandboxed runtime.

Usage:
  hands serve   [flags]             serve MCP over stdio (--http ADDR for Streamable HTTP)
  hands call    [flags] TOOL [JSON] run one call and print its result text
                                    (JSON "-" reads the arguments from stdin);
                                    exit 0 ok, 1 tool error, 2 usage error;
                                    --no-read-check lets it edit a file unread
  hands run     [flags]             read calls as JSON lines on stdin, write results
                                    as JSON lines; a line holding an array is a batch
  hands tools   [flags]             print the profile's tool definitions
                [--json | --format anthropic|openai|gemini|mcp]
  hands doctor  [flags]             report what is enforced: roots, deny patterns, namespaces, Landlock, network
  hands completion bash|zsh|fish    print a shell completion script
  hands version                     print the version (also --version, -v)

Run "hands COMMAND --help" for a command's flags.
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		gcpace.Start()
		return cmdServe(ctx, rest, stdin, stdout, stderr)
	case "call":
		return cmdCall(ctx, rest, stdin, stdout, stderr)
	case "run":
		gcpace.Start()
		return cmdRun(ctx, rest, stdin, stdout, stderr)
	case "tools":
		return cmdTools(rest, stdout, stderr)
	case "doctor":
		return cmdDoctor(rest, stdout, stderr)
	case "completion":
		return cmdCompletion(rest, stdout, stderr)
	case "version", "--version", "-version", "-v":
		return cmdVersion(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "hands: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}
