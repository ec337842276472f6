package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)


// fault is one bad message and the reply it must get.
type fault struct {
	name string
	msg  []byte
	want []byte // the exact reply, for corpus faults
	code int    // the JSON-RPC error code, for generated faults
	id   string // the reply's id as JSON, for generated faults
	hint string // a text the error message must contain
}

const faultsFile = "testdata/faults.txtar"

// faults returns the corpus of testdata/faults.txtar and the generated
// faults.
func faults(t *testing.T) (corpus *txtar.Archive, all []fault) {
	t.Helper()
	corpus, err := txtar.ParseFile(faultsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, f := range corpus.Files {
		if name, ok := strings.CutSuffix(f.Name, ".want"); ok {
			want[name] = bytes.TrimSpace(f.Data)
		}
	}
	for _, f := range corpus.Files {
		if !strings.HasSuffix(f.Name, ".want") {
			all = append(all, fault{name: f.Name, msg: bytes.TrimSuffix(f.Data, []byte("\n")), want: want[f.Name]})
		}
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	deepParams := `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"view","arguments":` +
		strings.Repeat(`{"a":`, 1001) + "1" + strings.Repeat("}", 1001) + "}}"
	big := `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"write","arguments":{"file_path":"big.txt","content":"` +
		strings.Repeat("x", 100<<20) + `"}}}`
	all = append(all,
		fault{name: "nul-bytes", msg: []byte("\x00\x00\x00\x00"), code: -32700, id: "null"},
		fault{name: "nul-inside", msg: []byte("{\"jsonrpc\":\"2.0\",\"id\":22,\x00\"method\":\"tools/list\"}"), code: -32700, id: "22"},
		fault{name: "invalid-utf8", msg: []byte("{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"tools/list\xff\xfe\"}"), code: -32601, id: "23"},
		fault{name: "nested-too-deep", msg: []byte(deep), code: -32700, id: "null", hint: "nested deeper than 1000"},
		fault{name: "params-nested-too-deep", msg: []byte(deepParams), code: -32700, id: "null", hint: "nested deeper than 1000"},
		fault{name: "100MB-content", msg: []byte(big), code: -32600, id: "21", hint: "--max-request-size"},
	)
	return corpus, all
}

// reply is a JSON-RPC response as read by a test.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// check compares a fault's reply with what it must be; for corpus faults
// without a golden reply yet, it records it under -update.
func (f fault) check(t *testing.T, got []byte, record map[string][]byte) {
	t.Helper()
	got = bytes.TrimSpace(got)
	var r reply
	if err := json.Unmarshal(got, &r); err != nil || r.Error == nil || r.Result != nil {
		t.Errorf("%s: reply %q is not a JSON-RPC error", f.name, clipped(got))
		return
	}
	if f.want != nil || f.code == 0 {
		if *update && record != nil {
			record[f.name] = got
			return
		}
		if !bytes.Equal(got, f.want) {
			t.Errorf("%s: reply\n%s\nwant\n%s", f.name, got, f.want)
		}
		return
	}
	if r.Error.Code != f.code || string(r.ID) != f.id || !strings.Contains(r.Error.Message, f.hint) {
		t.Errorf("%s: reply %s, want code %d, id %s, a message saying %q", f.name, clipped(got), f.code, f.id, f.hint)
	}
}

func clipped(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// writeGoldens rewrites the .want files of the corpus.
func writeGoldens(t *testing.T, corpus *txtar.Archive, got map[string][]byte) {
	t.Helper()
	var files []txtar.File
	for _, f := range corpus.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		files = append(files, f, txtar.File{Name: f.Name + ".want", Data: append(got[f.Name], '\n')})
	}
	corpus.Files = files
	if err := os.WriteFile(faultsFile, txtar.Format(corpus), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stdioServer is `hands serve` on real pipes.
type stdioServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

func startStdio(t *testing.T, args ...string) *stdioServer {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &stdioServer{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout), stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return s
}

// send writes msg and a newline; a large msg is written while the server
// reads it.
func (s *stdioServer) send(msg []byte) {
	s.t.Helper()
	if _, err := s.stdin.Write(append(msg[:len(msg):len(msg)], '\n')); err != nil {
		s.t.Fatalf("writing to the server: %v (stderr %s)", err, s.stderr)
	}
}

// recv reads one line of stdout.
func (s *stdioServer) recv() []byte {
	s.t.Helper()
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		s.t.Fatalf("reading a reply: %v; the server died? stderr:\n%s", err, s.stderr)
	}
	return line
}

// call sends a request and returns its reply.
func (s *stdioServer) call(id int, method, params string) reply {
	s.t.Helper()
	s.send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)))
	var r reply
	if line := s.recv(); json.Unmarshal(line, &r) != nil || string(r.ID) != strconv.Itoa(id) {
		s.t.Fatalf("reply to %d: %q", id, clipped(line))
	}
	return r
}

func (s *stdioServer) initialize() {
	s.t.Helper()
	if r := s.call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"faults","version":"1"}}`); r.Error != nil {
		s.t.Fatalf("initialize: %s", r.Error.Message)
	}
	s.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
}

// wait closes stdin and waits for the server to exit; it must exit 0.
func (s *stdioServer) wait() {
	s.t.Helper()
	s.stdin.Close()
	if err := s.cmd.Wait(); err != nil {
		s.t.Errorf("server exit: %v (stderr %s)", err, s.stderr)
	}
	if strings.Contains(s.stderr.String(), "panic") {
		s.t.Errorf("the server panicked:\n%s", s.stderr)
	}
}

// toolsWork checks that a good request still gets its answer.
func toolsWork(t *testing.T, after string, r reply) {
	t.Helper()
	var res struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || len(res.Tools) == 0 {
		t.Fatalf("tools/list after %s: %+v %s", after, r.Error, r.Result)
	}
}

// TestFaultsOverStdio sends each bad message of the corpus to `hands serve`
// over real pipes: each gets its error reply, and a good request after it
// still works, in the same session.
func TestFaultsOverStdio(t *testing.T) {
	corpus, all := faults(t)
	s := startStdio(t, "--root", workspace(t))
	s.initialize()
	got := map[string][]byte{}
	for i, f := range all {
		s.send(f.msg)
		f.check(t, s.recv(), got)
		toolsWork(t, f.name, s.call(100+i, "tools/list", "{}"))
	}
	// A call after all of them runs a tool.
	if r := s.call(99, "tools/call", `{"name":"view","arguments":{"path":"a.txt"}}`); r.Error != nil || !strings.Contains(string(r.Result), "alpha") {
		t.Errorf("a call after the faults: %+v %s", r.Error, r.Result)
	}
	s.wait()
	if *update {
		writeGoldens(t, corpus, got)
	}
}

// TestOversizedLineReadInBoundedMemory sends a 100 MB line to a server
// limited to 1 MiB and checks the server's peak resident memory stays far
// below the line's size.
func TestOversizedLineReadInBoundedMemory(t *testing.T) {
	s := startStdio(t, "--root", workspace(t), "--max-request-size", "1M")
	s.initialize()
	big := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write","arguments":{"file_path":"big.txt","content":"` +
		strings.Repeat("y", 100<<20) + `"}}}`)
	s.send(big)
	var r reply
	if err := json.Unmarshal(s.recv(), &r); err != nil || r.Error == nil || string(r.ID) != "7" ||
		!strings.Contains(r.Error.Message, "1048576 bytes (1M)") || !strings.Contains(r.Error.Message, "--max-request-size") {
		t.Fatalf("reply to a 100 MB line: %+v", r)
	}
	toolsWork(t, "a 100 MB line", s.call(8, "tools/list", "{}"))
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			t.Logf("peak RSS after a 100 MB line with a 1M limit: %d MiB", kb>>10)
			if kb > 60<<10 {
				t.Errorf("peak RSS %d kB: the line was buffered", kb)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(s.cmd.Dir, "big.txt")); err == nil {
		t.Error("the refused write ran")
	}
	s.wait()
}

// TestStdinEOFAnswersEveryRequest pipes a whole conversation and closes
// stdin at once (cat requests.jsonl | hands serve): every request read is
// answered before the server exits 0, the slow call included.
func TestStdinEOFAnswersEveryRequest(t *testing.T) {
	root := workspace(t)
	conv := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cat","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 0.3; echo slow-done"}}}`,
		`{"jsonrpc":"2.0","id":"four","method":"tools/call","params":{"name":"view","arguments":{"path":"a.txt"}}}`,
		`not json`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`,
	}, "\n") + "\n"
	for i := range 3 {
		cmd := exec.Command(binary, "serve", "--root", root)
		cmd.Stdin = strings.NewReader(conv)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %d: %v (stderr %s)", i, err, stderr.String())
		}
		replies := map[string]reply{}
		nulls := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var r reply
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("stdout line %q: %v", line, err)
			}
			if string(r.ID) == "null" {
				nulls++
				continue
			}
			if _, dup := replies[string(r.ID)]; dup {
				t.Errorf("two replies to %s", r.ID)
			}
			replies[string(r.ID)] = r
		}
		for _, id := range []string{"1", "2", "3", `"four"`, "5"} {
			r, ok := replies[id]
			if !ok || r.Error != nil {
				t.Errorf("run %d: request %s: reply %+v (stdout:\n%s\nstderr:\n%s)", i, id, r, out, stderr.String())
			}
		}
		if !strings.Contains(string(replies["3"].Result), "slow-done") || !strings.Contains(string(replies[`"four"`].Result), "alpha") {
			t.Errorf("run %d: call results %s %s", i, replies["3"].Result, replies[`"four"`].Result)
		}
		if nulls != 1 || len(replies) != 5 {
			t.Errorf("run %d: %d replies and %d refusals, want 5 and 1:\n%s", i, len(replies), nulls, out)
		}
	}
}

// httpServer is `hands serve --http` on a loopback port.
type httpServer struct {
	url    string
	stderr chan string // its log lines
}

func startHTTP(t *testing.T, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("server exit: %v", err)
		}
	})
	lines := make(chan string, 100)
	sc := bufio.NewScanner(stderr)
	if !sc.Scan() {
		t.Fatal("the server printed no address")
	}
	first := sc.Text()
	i := strings.Index(first, "http://")
	if i < 0 {
		t.Fatalf("no address in %q", first)
	}
	go func() {
		for sc.Scan() {
			if strings.Contains(sc.Text(), "panic") {
				t.Errorf("server: %s", sc.Text())
			}
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	return &httpServer{url: strings.TrimSpace(first[i:]), stderr: lines}
}

// post sends one message to the server and returns the status and the
// JSON-RPC messages of the response (its body, or the data of its events).
func (h *httpServer) post(t *testing.T, session string, header http.Header, body []byte) (*http.Response, []reply) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, messages(t, resp.Header.Get("Content-Type"), data)
}

func messages(t *testing.T, contentType string, data []byte) []reply {
	t.Helper()
	var out []reply
	if !strings.HasPrefix(contentType, "text/event-stream") {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil
		}
		var r reply
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("body %q (%s) is not JSON-RPC", clipped(data), contentType)
		}
		return []reply{r}
	}
	for _, ev := range events(data) {
		if ev["data"] == "" {
			continue
		}
		var r reply
		if err := json.Unmarshal([]byte(ev["data"]), &r); err != nil {
			t.Fatalf("event data %q", ev["data"])
		}
		out = append(out, r)
	}
	return out
}

// events splits an SSE stream into its events' fields.
func events(data []byte) []map[string]string {
	var out []map[string]string
	for _, block := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n\n") {
		ev := map[string]string{}
		for _, l := range strings.Split(block, "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && k != "" {
				ev[k] = strings.TrimPrefix(v, " ")
			}
		}
		if len(ev) > 0 {
			out = append(out, ev)
		}
	}
	return out
}

const protocol = "2025-11-25"

// initialize opens a session and returns its id.
func (h *httpServer) initialize(t *testing.T) string {
	t.Helper()
	resp, msgs := h.post(t, "", nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+protocol+`","capabilities":{},"clientInfo":{"name":"faults","version":"1"}}}`))
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" || len(msgs) != 1 || msgs[0].Error != nil {
		t.Fatalf("initialize: %d %q %+v", resp.StatusCode, session, msgs)
	}
	if resp, _ := h.post(t, session, versionHeader, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d", resp.StatusCode)
	}
	return session
}

var versionHeader = http.Header{"Mcp-Protocol-Version": {protocol}}

// call posts a request in a session and returns its reply.
func (h *httpServer) call(t *testing.T, session string, header http.Header, id int, method, params string) (int, reply) {
	t.Helper()
	hdr := versionHeader.Clone()
	for k, v := range header {
		hdr[k] = v
	}
	resp, msgs := h.post(t, session, hdr, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)))
	for _, m := range msgs {
		if string(m.ID) == strconv.Itoa(id) {
			return resp.StatusCode, m
		}
	}
	if resp.StatusCode == http.StatusOK {
		t.Fatalf("no reply to %d in %+v", id, msgs)
	}
	if len(msgs) == 1 {
		return resp.StatusCode, msgs[0]
	}
	return resp.StatusCode, reply{}
}

// TestFaultsOverHTTP posts each bad message of the corpus in a session:
// each gets a 400 (413 when too large) with its JSON-RPC error as the body,
// and a good request in the same session still works.
func TestFaultsOverHTTP(t *testing.T) {
	_, all := faults(t)
	h := startHTTP(t, "--root", workspace(t))
	session := h.initialize(t)
	for i, f := range all {
		resp, msgs := h.post(t, session, versionHeader, f.msg)
		status := http.StatusBadRequest
		if f.name == "100MB-content" {
			status = http.StatusRequestEntityTooLarge
		}
		if resp.StatusCode != status || len(msgs) != 1 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: status %d (want %d), %s, %d messages", f.name, resp.StatusCode, status, resp.Header.Get("Content-Type"), len(msgs))
			continue
		}
		data, _ := json.Marshal(msgs[0])
		if f.want != nil {
			// The corpus reply, compared as JSON-RPC.
			var want reply
			json.Unmarshal(f.want, &want)
			wantData, _ := json.Marshal(want)
			if !bytes.Equal(data, wantData) {
				t.Errorf("%s: body %s, want %s", f.name, data, wantData)
			}
		} else {
			f.check(t, data, nil)
		}
		code, r := h.call(t, session, nil, 200+i, "tools/list", "{}")
		if code != http.StatusOK {
			t.Fatalf("tools/list after %s: %d", f.name, code)
		}
		toolsWork(t, f.name, r)
	}
}
