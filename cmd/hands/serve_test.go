package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	big := `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"create_file","arguments":{"path":"big.txt","content":"` +
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
	toolsWork(t, "start", s.call(6, "tools/list", "{}"))
	before := peakRSS(t, s.cmd.Process.Pid)
	big := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_file","arguments":{"path":"big.txt","content":"` +
		strings.Repeat("y", 100<<20) + `"}}}`)
	s.send(big)
	var r reply
	if err := json.Unmarshal(s.recv(), &r); err != nil || r.Error == nil || string(r.ID) != "7" ||
		!strings.Contains(r.Error.Message, "1048576 bytes (1M)") || !strings.Contains(r.Error.Message, "--max-request-size") {
		t.Fatalf("reply to a 100 MB line: %+v", r)
	}
	toolsWork(t, "a 100 MB line", s.call(8, "tools/list", "{}"))
	after := peakRSS(t, s.cmd.Process.Pid)
	// The server's own size (its start-up, with every tool's schema) is
	// not the point: what the line added to the peak is.
	t.Logf("peak RSS %d MiB before a 100 MB line with a 1M limit, %d MiB after", before>>10, after>>10)
	if after-before > 32<<10 {
		t.Errorf("the peak grew by %d kB with a 100 MB line: the line was buffered", after-before)
	}
}

// peakRSS returns a process's peak resident memory in kB (VmHWM).
func peakRSS(t *testing.T, pid int) int {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
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
	url string

	mu      sync.Mutex
	log     []string      // its stderr lines so far
	changed chan struct{} // closed and replaced when a line comes
	ended   bool
	read    int // lines waitLog has looked at
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
	h := &httpServer{changed: make(chan struct{})}
	sc := bufio.NewScanner(stderr)
	if !sc.Scan() {
		t.Fatal("the server printed no address")
	}
	first := sc.Text()
	i := strings.Index(first, "http://")
	if i < 0 {
		t.Fatalf("no address in %q", first)
	}
	h.url = strings.TrimSpace(first[i:])
	go func() {
		for sc.Scan() {
			if strings.Contains(sc.Text(), "panic") {
				t.Errorf("server: %s", sc.Text())
			}
			h.mu.Lock()
			h.log = append(h.log, sc.Text())
			close(h.changed)
			h.changed = make(chan struct{})
			h.mu.Unlock()
		}
		h.mu.Lock()
		h.ended = true
		close(h.changed)
		h.mu.Unlock()
	}()
	return h
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

// TestForeignOriginIsRefusedBeforeAnythingRuns posts bash calls with
// Origin headers: a foreign origin gets 403 and its command never runs;
// loopback origins and --allow-origin ones are served.
func TestForeignOriginIsRefusedBeforeAnythingRuns(t *testing.T) {
	root := workspace(t)
	h := startHTTP(t, "--root", root, "--allow-origin", "https://app.example")
	if resp, _ := h.post(t, "", http.Header{"Origin": {"http://evil.example"}}, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+protocol+`","capabilities":{},"clientInfo":{"name":"evil","version":"1"}}}`)); resp.StatusCode != http.StatusForbidden || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize from a foreign origin: %d, session %q", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
	}
	session := h.initialize(t)
	touch := func(origin, file string) (int, reply) {
		return h.call(t, session, http.Header{"Origin": {origin}}, 2, "tools/call", `{"name":"bash","arguments":{"command":"touch `+file+`"}}`)
	}
	for i, origin := range []string{"http://evil.example", "null", "https://app.example.evil", "http://app.example", "https://app.example/path", "file://", "http://localhost.evil.example"} {
		file := fmt.Sprintf("evil-%d", i)
		code, r := touch(origin, file)
		if code != http.StatusForbidden || r.Error == nil || !strings.Contains(r.Error.Message, "--allow-origin") {
			t.Errorf("Origin %s: %d %+v, want 403 naming --allow-origin", origin, code, r.Error)
		}
	}
	for i, origin := range []string{"http://localhost:5173", "http://127.0.0.1:9", "https://[::1]:3000", "https://app.example", "HTTPS://APP.EXAMPLE"} {
		file := fmt.Sprintf("ok-%d", i)
		if code, r := touch(origin, file); code != http.StatusOK || r.Error != nil || strings.Contains(string(r.Result), `"isError":true`) {
			t.Errorf("Origin %s: %d %+v %s", origin, code, r.Error, r.Result)
		}
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			t.Errorf("Origin %s: the command did not run: %v", origin, err)
		}
	}
	// The allowed calls ran after the refused ones: had those run, their
	// files would be there by now.
	for i := range 7 {
		if _, err := os.Stat(filepath.Join(root, fmt.Sprintf("evil-%d", i))); err == nil {
			t.Errorf("a command from a refused origin ran (evil-%d exists)", i)
		}
	}
	if _, errOut, code := runCLI(t, "", "serve", "--root", root, "--http", "127.0.0.1:0", "--allow-origin", "app.example"); code != exitUsage || !strings.Contains(errOut, "scheme://host") {
		t.Errorf("a bad --allow-origin: %d %q", code, errOut)
	}
}

// TestRequestSizeLimit sends a write larger than --max-request-size over
// HTTP (with and without Content-Length) and stdio: it is refused naming the
// limit and the flag, nothing is written, and a small write then works.
func TestRequestSizeLimit(t *testing.T) {
	root := workspace(t)
	write := func(id int, file string, n int) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"create_file","arguments":{"path":%q,"content":%q}}}`, id, file, strings.Repeat("z", n)))
	}
	refused := func(t *testing.T, how string, r reply, id string) {
		t.Helper()
		if r.Error == nil || string(r.ID) != id || !strings.Contains(r.Error.Message, "2048 bytes (2K)") || !strings.Contains(r.Error.Message, "--max-request-size") {
			t.Errorf("%s: %+v, want a refusal of %s naming the 2K limit and --max-request-size", how, r, id)
		}
	}
	h := startHTTP(t, "--root", root, "--max-request-size", "2K")
	session := h.initialize(t)
	resp, msgs := h.post(t, session, versionHeader, write(5, "big-1.txt", 4096))
	if resp.StatusCode != http.StatusRequestEntityTooLarge || len(msgs) != 1 {
		t.Fatalf("a 4K body: %d %+v", resp.StatusCode, msgs)
	}
	refused(t, "a 4K body", msgs[0], "5")
	// Without Content-Length (chunked), the limit is met while reading.
	req, _ := http.NewRequest(http.MethodPost, h.url, io.MultiReader(bytes.NewReader(write(6, "big-2.txt", 4096))))
	req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
		"Mcp-Session-Id": {session}, "Mcp-Protocol-Version": {protocol}}
	chunked, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(chunked.Body)
	chunked.Body.Close()
	if chunked.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a chunked 4K body: %d %s", chunked.StatusCode, data)
	} else {
		refused(t, "a chunked 4K body", messages(t, chunked.Header.Get("Content-Type"), data)[0], "6")
	}
	if code, r := h.call(t, session, nil, 7, "tools/call", string(write(0, "small.txt", 100))[len(`{"jsonrpc":"2.0","id":0,"method":"tools/call","params":`):len(write(0, "small.txt", 100))-1]); code != http.StatusOK || r.Error != nil {
		t.Errorf("a small write after: %d %+v", code, r.Error)
	}

	s := startStdio(t, "--root", root, "--max-request-size", "2K")
	s.initialize()
	s.send(write(8, "big-3.txt", 4096))
	var r reply
	json.Unmarshal(s.recv(), &r)
	refused(t, "a 4K line", r, "8")
	s.send(write(9, "small-2.txt", 100))
	if line := s.recv(); !strings.Contains(string(line), `"id":9,"result"`) {
		t.Errorf("a small write after: %s", line)
	}
	s.wait()
	for _, f := range []string{"big-1.txt", "big-2.txt", "big-3.txt"} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			t.Errorf("%s was written", f)
		}
	}
	for _, f := range []string{"small.txt", "small-2.txt"} {
		if data, err := os.ReadFile(filepath.Join(root, f)); err != nil || len(data) != 100 {
			t.Errorf("%s: %d bytes, %v", f, len(data), err)
		}
	}
}

// waitLog reads the server's log until a line contains all of words.
func (h *httpServer) waitLog(t *testing.T, words ...string) string {
	t.Helper()
	for {
		h.mu.Lock()
		for ; h.read < len(h.log); h.read++ {
			line, all := h.log[h.read], true
			for _, w := range words {
				all = all && strings.Contains(line, w)
			}
			if all {
				h.read++
				h.mu.Unlock()
				return line
			}
		}
		ended, changed := h.ended, h.changed
		h.mu.Unlock()
		if ended {
			t.Fatalf("the server ended without logging %q", words)
		}
		<-changed
	}
}

// TestIdleSessionsAreClosed runs a server with a short idle timeout: a
// session left alone is closed (its id is then unknown, 404), a session
// whose call outlasts the timeout after its connection dropped is not (the
// client resumes and gets the result), and new sessions still open.
func TestIdleSessionsAreClosed(t *testing.T) {
	root := workspace(t)
	h := startHTTP(t, "--root", root, "--session-idle-timeout", "300ms", "--log-level", "debug")
	busy := h.initialize(t)
	prime := h.cutCall(t, busy, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"while [ ! -e go ]; do sleep 0.05; done; echo still-here"}}}`)
	// The idle session starts after the busy one has no request open: by
	// the time it is closed, the busy one has been as long without one.
	idle := h.initialize(t)
	h.waitLog(t, "closed an idle session", "session="+idle)
	code, r := h.call(t, idle, nil, 3, "tools/list", "{}")
	if code != http.StatusNotFound || r.Error == nil {
		t.Errorf("a request in the closed session: %d %+v, want 404 with a JSON-RPC error", code, r)
	}
	if err := os.WriteFile(filepath.Join(root, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := h.resume(t, busy, prime["id"], "2"); !strings.Contains(string(res.Result), "still-here") {
		t.Errorf("the busy session's call: %+v %s", res.Error, res.Result)
	}
	fresh := h.initialize(t)
	if code, r := h.call(t, fresh, nil, 4, "tools/list", "{}"); code != http.StatusOK {
		t.Errorf("a new session: %d %+v", code, r)
	}
}

// TestResumeAfterTheConnectionDrops cuts the connection of a tools/call in
// the middle of its bash command, lets the command finish, and reconnects
// with Last-Event-ID: the result is replayed. The stream's first event is
// the priming event of SEP-1699, with an id, a retry field and no data.
func TestResumeAfterTheConnectionDrops(t *testing.T) {
	root := workspace(t)
	h := startHTTP(t, "--root", root, "--log-level", "debug")
	session := h.initialize(t)
	prime := h.cutCall(t, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"while [ ! -e go ]; do sleep 0.05; done; echo resumed-result"}}}`)
	if prime["event"] != "prime" || prime["id"] == "" || prime["retry"] != "1000" || prime["data"] != "" {
		t.Errorf("priming event %q, want event prime, an id, retry 1000, empty data", prime)
	}
	if err := os.WriteFile(filepath.Join(root, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := h.resume(t, session, prime["id"], "2"); !strings.Contains(string(res.Result), "resumed-result") {
		t.Errorf("result %+v %s", res.Error, res.Result)
	}
}

// cutCall posts a call, reads the first event of its stream and drops the
// connection; it returns once the server has seen the request end.
func (h *httpServer) cutCall(t *testing.T, session, body string) map[string]string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
	req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
		"Mcp-Session-Id": {session}, "Mcp-Protocol-Version": {protocol}}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("call: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	first, err := readEvent(bufio.NewReader(resp.Body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // the connection drops mid-call
	// Until the server has seen the drop, the stream is still taken.
	h.waitLog(t, "http request done", "rpc=tools/call", "session="+session)
	return first
}

// resume reconnects to a stream with Last-Event-ID and reads it until the
// reply to id.
func (h *httpServer) resume(t *testing.T, session, lastEventID, id string) reply {
	t.Helper()
	get, _ := http.NewRequest(http.MethodGet, h.url, nil)
	get.Header = http.Header{"Accept": {"text/event-stream"}, "Mcp-Session-Id": {session},
		"Mcp-Protocol-Version": {protocol}, "Last-Event-Id": {lastEventID}}
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		t.Fatalf("reconnect: %d %s", resp.StatusCode, data)
	}
	r := bufio.NewReader(resp.Body)
	for {
		ev, err := readEvent(r)
		if err != nil {
			t.Fatalf("the resumed stream ended without the reply to %s: %v", id, err)
		}
		var msg reply
		if ev["data"] != "" && json.Unmarshal([]byte(ev["data"]), &msg) == nil && string(msg.ID) == id {
			return msg
		}
	}
}

// readEvent reads one server-sent event.
func readEvent(r *bufio.Reader) (map[string]string, error) {
	ev := map[string]string{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(ev) == 0 {
				continue
			}
			return ev, nil
		}
		if k, v, ok := strings.Cut(line, ":"); ok && k != "" {
			ev[k] = strings.TrimPrefix(v, " ")
		}
	}
}

// cutter is a TCP proxy that can drop every connection through it, and
// says when both a call's request and its stream's priming event passed.
type cutter struct {
	ln     net.Listener
	target string
	primed chan struct{} // closed once "tools/call" went up and "event: prime" came down
	once   sync.Once

	mu    sync.Mutex
	conns []net.Conn
}

// cutPair is one proxied connection: whether the call went up on it (the
// priming event that counts is the one on the call's own stream, not
// another stream's).
type cutPair struct{ call bool }

func newCutter(t *testing.T, target string) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{ln: ln, target: target, primed: make(chan struct{})}
	t.Cleanup(func() { ln.Close(); c.cut() })
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				down.Close()
				continue
			}
			c.mu.Lock()
			c.conns = append(c.conns, down, up)
			c.mu.Unlock()
			p := &cutPair{}
			go c.pipe(up, down, "tools/call", p)
			go c.pipe(down, up, "event: prime", p)
		}
	}()
	return c
}

func (c *cutter) pipe(dst, src net.Conn, watch string, p *cutPair) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if bytes.Contains(buf[:n], []byte(watch)) {
				c.mu.Lock()
				if watch == "tools/call" {
					p.call = true
				} else if p.call {
					c.once.Do(func() { close(c.primed) })
				}
				c.mu.Unlock()
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	dst.Close()
	src.Close()
}

func (c *cutter) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.conns {
		conn.Close()
	}
	c.conns = nil
}

// TestSDKClientResumesAfterTheConnectionDrops drops every connection of
// the go-sdk's Streamable HTTP client while its call runs: the client
// reconnects with Last-Event-ID by itself and gets the call's result.
func TestSDKClientResumesAfterTheConnectionDrops(t *testing.T) {
	root := workspace(t)
	h := startHTTP(t, "--root", root)
	proxy := newCutter(t, strings.TrimSuffix(strings.TrimPrefix(h.url, "http://"), "/"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "resumer", Version: "1"}, nil)
	// Resumable streams belong to sessions: protocol 2026-07-28 has
	// neither (the SDK writes no priming event for it).
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + proxy.ln.Addr().String() + "/"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "while [ ! -e go ]; do sleep 0.05; done; echo survived-the-cut"}})
		done <- result{res, err}
	}()
	select {
	case <-proxy.primed:
	case <-ctx.Done():
		t.Fatal("the call's stream had no priming event: it cannot be resumed")
	}
	proxy.cut()
	if err := os.WriteFile(filepath.Join(root, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.res.IsError || !strings.Contains(r.res.Content[0].(*mcp.TextContent).Text, "survived-the-cut") {
		t.Fatalf("call across a dropped connection: %v %+v", r.err, r.res)
	}
}

// TestStdinEOFEndsASubscription pipes a subscriptions/listen (protocol
// 2026-07-28, which ends only when cancelled) and a tools/list, then
// closes stdin: the subscription is cancelled, both are answered, and the
// server exits 0 instead of waiting forever.
func TestStdinEOFEndsASubscription(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--root", workspace(t))
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{` + meta + `,"notifications":{"toolsListChanged":true}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}` + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v (stderr %s)", err, stderr.String())
	}
	replies := map[string]reply{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r reply
		if json.Unmarshal([]byte(line), &r) == nil && r.ID != nil {
			replies[string(r.ID)] = r
		}
	}
	// The cancelled subscription ends with a result or an error, as the
	// cancellation finds it; the list has its result.
	if _, ok := replies["1"]; !ok || replies["2"].Result == nil {
		t.Errorf("replies %v:\n%s", replies, out)
	}
}
