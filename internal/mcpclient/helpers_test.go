package mcpclient_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/mcpclient"
	"github.com/hands-dev/hands/tool"
)

// fakeServer is the path of the test server built from testdata.
var fakeServer string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpclient-test")
	if err != nil {
		panic(err)
	}
	fakeServer = filepath.Join(dir, "fakeserver")
	if out, err := exec.Command("go", "build", "-o", fakeServer, "./testdata/fakeserver").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building the fake server: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// gw is a manager behind an executor, as the runtime wires it.
type gw struct {
	m       *mcpclient.Manager
	reg     *tool.Registry
	exec    *tool.Executor
	changes chan struct{}
}

func start(t *testing.T, timeout time.Duration, servers ...mcpclient.Server) *gw {
	t.Helper()
	g := &gw{reg: tool.NewRegistry(), changes: make(chan struct{}, 100)}
	g.exec = &tool.Executor{Registry: g.reg}
	g.m = mcpclient.Start(context.Background(), servers, mcpclient.Options{
		ConnectTimeout: timeout,
		Publish: func(_ string, remove []string, add []tool.Tool) error {
			return g.reg.Replace(remove, add)
		},
		Changed: func() { g.changes <- struct{}{} },
	})
	t.Cleanup(func() { g.m.Close() })
	return g
}

func (g *gw) call(name, input string) tool.Result {
	return g.exec.Execute(context.Background(), nil, tool.Call{ID: "c1", Name: name, Input: json.RawMessage(input)})
}

func (g *gw) status(name string) mcpclient.Status {
	for _, s := range g.m.Status() {
		if s.Name == name {
			return s
		}
	}
	return mcpclient.Status{}
}

func stdio(name string, args ...string) mcpclient.Server {
	return mcpclient.Server{Name: name, Type: "stdio", Command: fakeServer, Args: args, Source: "test"}
}

// httpServer starts the fake server over Streamable HTTP and returns its
// URL; the process is killed when the test ends.
func httpServer(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(fakeServer, "-http", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { cmd.Process.Kill(); cmd.Wait() }) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's URL: %v", err)
	}
	return strings.TrimSpace(line)
}
