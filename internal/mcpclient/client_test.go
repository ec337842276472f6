package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/mcpclient"
	"github.com/hands-dev/hands/tool"
)

// TestStdioServerBehindTheWrapper lists a stdio server's tools under
// their qualified names, with the remote schema, description and
// annotations, and calls them: text, an image, structured content, a
// remote error and a malformed call that never reaches the server.
func TestStdioServerBehindTheWrapper(t *testing.T) {
	g := start(t, 20*time.Second, stdio("fake"))
	if st := g.status("fake"); st.State != mcpclient.StateConnected || st.Tools != 11 || st.Err != "" {
		t.Fatalf("status %+v, want connected with 11 tools", st)
	}
	want := []string{"mcp__fake__add_tool", "mcp__fake__big", "mcp__fake__crash", "mcp__fake__echo", "mcp__fake__env",
		"mcp__fake__fail", "mcp__fake__header", "mcp__fake__image", "mcp__fake__pid", "mcp__fake__structured", "mcp__fake__wait"}
	if got := g.reg.Names(); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	echo, _ := g.reg.Get("mcp__fake__echo")
	info := echo.Info()
	if info.Description != "Echo the text back." || !info.ReadOnly || info.Destructive || !info.Idempotent || info.OpenWorld {
		t.Errorf("echo info %+v: description or annotations not kept", info)
	}
	var schema struct {
		Properties map[string]struct{ Description string } `json:"properties"`
		Required   []string                                `json:"required"`
	}
	if err := json.Unmarshal(info.InputSchema, &schema); err != nil || schema.Properties["text"].Description != "the text to send back" || !slices.Equal(schema.Required, []string{"text"}) {
		t.Errorf("echo schema %s not the remote one (%v)", info.InputSchema, err)
	}
	fail, _ := g.reg.Get("mcp__fake__fail")
	if fi := fail.Info(); fi.ReadOnly || !fi.Destructive || !fi.OpenWorld {
		t.Errorf("fail info %+v: MCP's defaults and hints not kept", fi)
	}

	res := g.call("mcp__fake__echo", `{"text":"hi"}`)
	if res.IsError || res.TextOf() != "echo: hi" || res.Structured != nil {
		t.Errorf("echo: %+v", res)
	}

	res = g.call("mcp__fake__image", `{}`)
	if res.IsError || len(res.Content) != 2 || res.Content[1].Type != "image" || res.Content[1].MIMEType != "image/png" || !strings.HasPrefix(string(res.Content[1].Data), "\x89PNG") {
		t.Errorf("image: %+v", res)
	}

	res = g.call("mcp__fake__structured", `{"name":"Lyon"}`)
	b, _ := json.Marshal(res.Structured)
	if res.IsError || string(b) != `{"city":"Lyon","temp_c":21.5}` {
		t.Errorf("structured: %s %+v", b, res)
	}
	st, _ := g.reg.Get("mcp__fake__structured")
	if !strings.Contains(string(st.Info().OutputSchema), `"temp_c"`) {
		t.Errorf("output schema not kept: %s", st.Info().OutputSchema)
	}

	res = g.call("mcp__fake__fail", `{}`)
	if !res.IsError || res.Code != tool.MCPServerError || !strings.Contains(res.TextOf(), "the widget is broken") || !strings.Contains(res.TextOf(), "MCP server fake") {
		t.Errorf("fail: %+v", res)
	}

	res = g.call("mcp__fake__echo", `{"text":5}`)
	if !res.IsError || res.Code != tool.InvalidInput || !strings.Contains(res.TextOf(), "text") {
		t.Errorf("malformed call: %+v", res)
	}
}

// TestHTTPServerWithHeadersAndVariables reaches a Streamable HTTP server
// whose header comes from ${VAR} expansion of a parsed entry.
func TestHTTPServerWithHeadersAndVariables(t *testing.T) {
	url := httpServer(t)
	env := map[string]string{"FAKE_URL": url, "FAKE_TOKEN": "s3cret"}
	servers, err := mcpclient.ParseServers("test.json", json.RawMessage(`{"web":{"type":"http","url":"${FAKE_URL}","headers":{"X-Token":"Bearer ${FAKE_TOKEN}","X-Default":"${FAKE_UNSET:-dflt}"}}}`),
		func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	g := start(t, 20*time.Second, servers...)
	if st := g.status("web"); st.State != mcpclient.StateConnected || st.Type != "http" {
		t.Fatalf("status %+v", st)
	}
	if res := g.call("mcp__web__header", `{"name":"X-Token"}`); res.TextOf() != "X-Token: Bearer s3cret" {
		t.Errorf("header: %+v", res)
	}
	if res := g.call("mcp__web__header", `{"name":"X-Default"}`); res.TextOf() != "X-Default: dflt" {
		t.Errorf("default header: %+v", res)
	}
	if res := g.call("mcp__web__echo", `{"text":"over http"}`); res.TextOf() != "echo: over http" {
		t.Errorf("echo: %+v", res)
	}
}

// TestListChangedRefresh: a tool the server adds at run time is offered
// once the server sends notifications/tools/list_changed.
func TestListChangedRefresh(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			srv := stdio("fake")
			if transport == "http" {
				srv = mcpclient.Server{Name: "fake", Type: "http", URL: httpServer(t)}
			}
			g := start(t, 20*time.Second, srv)
			<-g.changes // the first listing
			if _, ok := g.reg.Get("mcp__fake__added"); ok {
				t.Fatal("added exists before it was added")
			}
			if res := g.call("mcp__fake__add_tool", `{}`); res.IsError {
				t.Fatalf("add_tool: %+v", res)
			}
			for {
				<-g.changes
				if _, ok := g.reg.Get("mcp__fake__added"); ok {
					break
				}
			}
			if res := g.call("mcp__fake__added", `{}`); res.IsError || res.TextOf() != "added works" {
				t.Errorf("added: %+v", res)
			}
			if st := g.status("fake"); st.Tools != 12 {
				t.Errorf("status %+v, want 12 tools", st)
			}
		})
	}
}

// TestCrashMidCallAndBack: a server that dies during a call fails that
// call with a clear error, is reported disconnected, and is started again
// on the next call.
func TestCrashMidCallAndBack(t *testing.T) {
	g := start(t, 20*time.Second, stdio("fake"))
	pid1 := g.call("mcp__fake__pid", `{}`).TextOf()
	res := g.call("mcp__fake__crash", `{}`)
	if !res.IsError || res.Code != tool.MCPServerUnavailable || !strings.Contains(res.TextOf(), "restarted on the next call") {
		t.Fatalf("crash: %+v", res)
	}
	if st := g.status("fake"); st.State != mcpclient.StateDisconnected || st.Err == "" {
		t.Errorf("after the crash: %+v", st)
	}
	res = g.call("mcp__fake__pid", `{}`)
	if res.IsError || res.TextOf() == pid1 {
		t.Fatalf("after the crash, pid %q (before %q): %+v", res.TextOf(), pid1, res)
	}
	if st := g.status("fake"); st.State != mcpclient.StateConnected || st.Tools != 11 {
		t.Errorf("after reconnecting: %+v", st)
	}
}

// TestReconnectBackoff: a server that cannot be restarted fails the call
// that tried, and the next call fails at once, saying when the next
// attempt is, without starting it again.
func TestReconnectBackoff(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "broken")
	starts := filepath.Join(dir, "starts")
	script := "echo x >> " + starts + "; test -e " + marker + " && exit 1; exec " + fakeServer
	g := start(t, 20*time.Second, mcpclient.Server{Name: "flaky", Type: "stdio", Command: "sh", Args: []string{"-c", script}})
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if res := g.call("mcp__flaky__crash", `{}`); res.Code != tool.MCPServerUnavailable {
		t.Fatalf("crash: %+v", res)
	}
	res := g.call("mcp__flaky__echo", `{"text":"x"}`)
	if res.Code != tool.MCPServerUnavailable || !strings.Contains(res.TextOf(), "reconnecting failed") {
		t.Fatalf("first call after the crash: %+v", res)
	}
	res = g.call("mcp__flaky__echo", `{"text":"x"}`)
	if res.Code != tool.MCPServerUnavailable || !strings.Contains(res.TextOf(), "next attempt to reconnect is in") {
		t.Fatalf("second call: %+v", res)
	}
	b, _ := os.ReadFile(starts)
	if n := strings.Count(string(b), "x"); n != 2 {
		t.Errorf("the server was started %d times, want 2 (the backoff holds the third)", n)
	}
	if st := g.status("flaky"); st.State != mcpclient.StateFailed {
		t.Errorf("status %+v", st)
	}
}

// TestSlowAndFailingServersDoNotHoldOthersBack: a server that never
// answers initialize times out and one whose command does not exist
// fails; both are reported, and the working one is offered.
func TestSlowAndFailingServersDoNotHoldOthersBack(t *testing.T) {
	g := start(t, 2*time.Second, stdio("slow", "-hang"), mcpclient.Server{Name: "gone", Type: "stdio", Command: "/nonexistent/server"}, stdio("good"))
	if st := g.status("slow"); st.State != mcpclient.StateFailed || !strings.Contains(st.Err, "no answer to initialize") {
		t.Errorf("slow: %+v", st)
	}
	if st := g.status("gone"); st.State != mcpclient.StateFailed || !strings.Contains(st.Err, "/nonexistent/server") {
		t.Errorf("gone: %+v", st)
	}
	if st := g.status("good"); st.State != mcpclient.StateConnected || st.Tools != 11 {
		t.Errorf("good: %+v", st)
	}
	if res := g.call("mcp__good__echo", `{"text":"ok"}`); res.TextOf() != "echo: ok" {
		t.Errorf("echo: %+v", res)
	}
	for _, n := range g.reg.Names() {
		if strings.HasPrefix(n, "mcp__slow__") || strings.HasPrefix(n, "mcp__gone__") {
			t.Errorf("tool %s offered from a server that failed", n)
		}
	}
}

// TestCloseStopsStdioServers: closing the manager ends the server
// processes.
func TestCloseStopsStdioServers(t *testing.T) {
	g := start(t, 20*time.Second, stdio("fake"))
	pid, err := strconv.Atoi(g.call("mcp__fake__pid", `{}`).TextOf())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server %d still exists after Close (kill 0: %v)", pid, err)
	}
	res := g.call("mcp__fake__echo", `{"text":"x"}`)
	if res.Code != tool.MCPServerUnavailable || !strings.Contains(res.TextOf(), "shutting down") {
		t.Errorf("call after Close: %+v", res)
	}
}

// TestToolNamesQualified: server and tool names with other characters
// are qualified as Claude Code does; the remote name is what is called.
func TestToolNamesQualified(t *testing.T) {
	g := start(t, 20*time.Second, stdio("my.server"))
	if res := g.call("mcp__my_server__echo", `{"text":"q"}`); res.TextOf() != "echo: q" {
		t.Errorf("echo: %+v", res)
	}
	if st := g.status("my.server"); st.Tools != 11 {
		t.Errorf("status %+v", st)
	}
}

// TestCallTimeout: a remote call over CallTimeout fails as CANCELED,
// naming the server, and the server (told to cancel) answers the next
// call.
func TestCallTimeout(t *testing.T) {
	g := &gw{reg: tool.NewRegistry(), changes: make(chan struct{}, 100)}
	g.exec = &tool.Executor{Registry: g.reg}
	g.m = mcpclient.Start(context.Background(), []mcpclient.Server{stdio("fake")}, mcpclient.Options{
		ConnectTimeout: 20 * time.Second, CallTimeout: 300 * time.Millisecond,
		Publish: func(_ string, remove []string, add []tool.Tool) error { return g.reg.Replace(remove, add) },
	})
	defer g.m.Close()
	res := g.call("mcp__fake__wait", `{}`)
	if res.Code != tool.Canceled || !strings.Contains(res.TextOf(), "MCP server fake did not answer the call of wait within 300ms") {
		t.Errorf("wait: %+v", res)
	}
	if res := g.call("mcp__fake__echo", `{"text":"after"}`); res.TextOf() != "echo: after" {
		t.Errorf("echo after the timeout: %+v", res)
	}
}
