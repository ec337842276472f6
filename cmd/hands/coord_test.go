package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// loopServer is `hands serve` on real pipes, as a loop on a coordinator.
type loopServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    *json.Encoder
	lines chan map[string]any
	notes chan map[string]any // notifications of Hands's own
}

func startLoop(t *testing.T, args ...string) *loopServer {
	t.Helper()
	return startLoopCmd(t, exec.Command(binary, append([]string{"serve"}, args...)...), new(strings.Builder))
}

// startLoopCmd is startLoop with the command given; its stderr goes to
// stderr, to be read once the command has been waited for.
func startLoopCmd(t *testing.T, cmd *exec.Cmd, stderr *strings.Builder) *loopServer {
	t.Helper()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	l := &loopServer{t: t, cmd: cmd, in: json.NewEncoder(stdin), lines: make(chan map[string]any, 64), notes: make(chan map[string]any, 64)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			if method, _ := m["method"].(string); strings.HasPrefix(method, "notifications/hands/") {
				l.notes <- m
			} else {
				l.lines <- m
			}
		}
		close(l.lines)
	}()
	l.send(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "loop", "version": "1"}}})
	l.reply(0)
	l.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return l
}

func (l *loopServer) send(m map[string]any) {
	l.t.Helper()
	if err := l.in.Encode(m); err != nil {
		l.t.Fatal(err)
	}
}

// call starts a tools/call; reply waits for it.
func (l *loopServer) call(id int, name string, args map[string]any) {
	l.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
}

func (l *loopServer) reply(id int) map[string]any {
	l.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-l.lines:
			if !ok {
				l.t.Fatalf("the server ended before replying to %d", id)
			}
			if fmt.Sprint(m["id"]) == fmt.Sprint(id) {
				return m
			}
		case <-timeout:
			l.t.Fatalf("no reply to %d", id)
		}
	}
}

// text returns a call reply's first text and whether it is an error.
func callText(m map[string]any) (string, bool) {
	r, _ := m["result"].(map[string]any)
	c, _ := r["content"].([]any)
	if len(c) == 0 {
		return fmt.Sprint(m), true
	}
	t, _ := c[0].(map[string]any)["text"].(string)
	isErr, _ := r["isError"].(bool)
	return t, isErr
}

func (l *loopServer) note() map[string]any {
	l.t.Helper()
	select {
	case n := <-l.notes:
		return n
	case <-time.After(60 * time.Second):
		l.t.Fatal("no coordination notification")
		return nil
	}
}

// startNATS starts an embedded NATS server on loopback for the test and
// returns its client URL.
func startNATS(t *testing.T) string {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// TestLoopsOverNATS: two `hands serve` processes on one NATS server: a
// query is answered with reply_query by the other loop's client, shared
// data arrives as a notification, a new iteration needs a fresh read, an
// unknown loop is named, and a loop killed mid-query ends the query with
// LOOP_ENDED well before its timeout.
func TestLoopsOverNATS(t *testing.T) {
	url := startNATS(t)
	rootA, rootB := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(rootB, "a.txt"), []byte("one\n"), 0o644)
	a := startLoop(t, "--root", rootA, "--profile", "taskdaemon", "--coordinator", url, "--exec-id", "alpha")
	b := startLoop(t, "--root", rootB, "--profile", "taskdaemon", "--coordinator", url, "--exec-id", "beta")

	// A loop joins when its client has initialized; a first call's reply
	// shows it has.
	for _, l := range []*loopServer{a, b} {
		l.call(100, "list_directory", map[string]any{})
		l.reply(100)
	}
	a.call(1, "query_loop", map[string]any{"target_exec_id": "beta", "question": "which port?"})
	n := b.note()
	p, _ := n["params"].(map[string]any)
	if n["method"] != "notifications/hands/coordination" || p["question"] != "which port?" || p["from"] != "alpha" || p["exec_id"] != "beta" {
		t.Fatalf("query notification %v", n)
	}
	b.call(2, "reply_query", map[string]any{"query_id": p["id"], "reply": "8080"})
	r2 := b.reply(2)
	if text, isErr := callText(r2); isErr {
		t.Fatalf("reply_query: %s", text)
	}
	// The model reads the query after its next result.
	if all, _ := json.Marshal(r2); !strings.Contains(string(all), "loop-messages") || !strings.Contains(string(all), "which port?") {
		t.Errorf("the query is not shown to the model: %s", all)
	}
	if text, isErr := callText(a.reply(1)); isErr || text != "8080" {
		t.Fatalf("query_loop: %q %v", text, isErr)
	}

	a.call(3, "share_data", map[string]any{"target_exec_ids": []string{"beta"}, "data_type": "config", "data": map[string]any{"port": 8080}})
	if text, isErr := callText(a.reply(3)); isErr || text != "Shared config to 1 loops" {
		t.Fatalf("share_data: %q", text)
	}
	n = b.note()
	p, _ = n["params"].(map[string]any)
	if d, _ := json.Marshal(p["data"]); p["data_type"] != "config" || string(d) != `{"port":8080}` {
		t.Fatalf("share notification %v", n)
	}

	b.call(4, "read_file", map[string]any{"path": "a.txt"})
	b.reply(4)
	b.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/hands/newIteration"})
	b.call(5, "edit_file", map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"})
	if text, isErr := callText(b.reply(5)); !isErr {
		t.Fatalf("edit after a new iteration without a read: %s", text)
	}
	if data, _ := os.ReadFile(filepath.Join(rootB, "a.txt")); string(data) != "one\n" {
		t.Fatalf("a.txt changed: %q", data)
	}
	b.call(8, "read_file", map[string]any{"path": "a.txt"})
	b.reply(8)
	b.call(9, "edit_file", map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"})
	if text, isErr := callText(b.reply(9)); isErr {
		t.Fatalf("edit after a fresh read: %s", text)
	}

	a.call(6, "query_loop", map[string]any{"target_exec_id": "gamma", "question": "q"})
	if text, _ := callText(a.reply(6)); !strings.Contains(text, "LOOP_NOT_FOUND") || !strings.Contains(text, "gamma") {
		t.Fatalf("unknown loop: %s", text)
	}

	a.call(7, "query_loop", map[string]any{"target_exec_id": "beta", "question": "still there?", "timeout_ms": 120000})
	b.note()
	start := time.Now()
	b.cmd.Process.Kill()
	text, isErr := callText(a.reply(7))
	if !isErr || !strings.Contains(text, "LOOP_ENDED") {
		t.Fatalf("query to a killed loop: %s", text)
	}
	t.Logf("a killed loop was known as ended after %s", time.Since(start))
}
