// Package tooltest runs txtar scenarios through the real executor.
//
// A scenario is one .txtar file: its comment says in a sentence what it
// tests, and may hold directives, one per line, starting with "!":
//
//	!profile claude        the profile (default native)
//	!deny .env             a deny pattern (repeatable)
//	!max-file-size 100     the size limit in bytes
//	!mkdir sub/dir         an extra empty directory in the workspace
//	!symlink link target   a symlink in the workspace
//	!mkfifo name           a named pipe in the workspace
//	!socket name           a Unix socket file in the workspace
//	!chmod 0755 file       a mode for a workspace file
//	!touch file 60         a file's (or directory's) modification time, in
//	                       seconds after the fixed time all workspace files
//	                       and directories get
//	!core list             also expose a core tool the profile leaves out,
//	                       under its core name (repeatable)
//	!mode plan             the permission mode the session starts in
//	!shell /bin/bash       the shell commands run in
//	!reply {"accepted":…}  the user's next answer to a tool's prompt, a
//	                       tool.Reply as JSON (repeatable, in order);
//	                       without one, no user can be asked
//	!site DIR              serve the workspace's DIR over https on 127.0.0.1
//	                       at $SITE (web_fetch may reach it)
//	!searx FILE            answer web_search as a SearXNG instance whose
//	                       JSON answer is the workspace's FILE
//	!peer NAME             another loop on an in-process coordinator (the
//	                       session is the loop "loop"): it answers a query
//	                       with "NAME heard: QUESTION" and takes shared data
//	!ask NAME QUESTION     before the calls, peer NAME asks the session
//	                       QUESTION (its query id is NAME-1, NAME-2, …)
//
// Its sections are the workspace files (any name), "call" (one JSON call
// {"name":…,"input":…} per line, run in order in one session), "want" (the
// results as text) and "after/NAME" (a file's exact content after the
// calls). A call may add "until":"TEXT" for what happens in the background
// (a task's output): the harness repeats it until its result's text holds
// TEXT, for at most ten seconds, and records only the last result, so the
// call must be one that can be repeated (such as a non-blocking
// task_output, which reports "(no new output)" until there is some). The
// harness unpacks the workspace into t.TempDir(), writes paths under it as
// $ROOT (and its parent as $ROOT/..), and compares. Run tests with -update
// to rewrite "want" and "after/" sections from what the calls produced.
package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/coord"
	"github.com/hands-dev/hands/internal/claudedirs"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want and after/ sections of txtar scenarios")

// Hooks extend a scenario run.
type Hooks struct {
	// Check runs on every result, for checks beyond the text (structured
	// content, codes).
	Check func(t *testing.T, profile string, res tool.Result)
	// Scrub rewrites the results' text before it is compared, for values
	// that change from run to run (a process group id).
	Scrub func(string) string
	// Before runs before each scenario file (its path), to skip one whose
	// prerequisite, such as a language server, is missing.
	Before func(t *testing.T, file string)
}

var (
	agentID    = regexp.MustCompile(`(agentId: |agent |resume=")a[0-9a-f]{8}\b`)
	durationMS = regexp.MustCompile(`duration_ms: \d+`)
	// A background agent's transcript names its lines and their times; a
	// session's UUID names its results directory under the claude profile.
	uuid      = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timestamp = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z`)
)

// Run runs every .txtar scenario under dir as a subtest.
func Run(t *testing.T, dir string) { RunHooks(t, dir, Hooks{}) }

// RunHooks is Run with hooks.
func RunHooks(t *testing.T, dir string, h Hooks) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txtar") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .txtar scenarios under %s", dir)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, dir+string(filepath.Separator)), ".txtar")
		t.Run(name, func(t *testing.T) {
			if h.Before != nil {
				h.Before(t, f)
			}
			runFile(t, f, h)
		})
	}
}

// Scenario is a parsed txtar scenario.
type Scenario struct {
	Options hands.Options
	// Chat names a workspace file of scripted model turns (a JSON array of
	// {"text": ...} or {"calls": [{"name", "input"}]}) that answer the
	// task tool's agents.
	Chat   string
	Mkdirs []string
	Links  [][2]string
	// Specials are named pipes ("fifo") and sockets ("socket") to make,
	// by workspace path.
	Specials [][2]string
	Modes    map[string]os.FileMode
	// Touch gives a workspace file a modification time, in seconds after
	// the fixed time every other file gets.
	Touch map[string]int
	Files map[string][]byte
	Calls []tool.Call
	// Until holds, for a call that has one, the text its result must hold
	// before the scenario goes on.
	Until map[int]string
	Want  string
	After map[string][]byte
	// Replies are the user's answers to prompts, in order.
	Replies []tool.Reply
	// Site is the workspace directory served at $SITE; Searx the file a
	// fake SearXNG answers with.
	Site, Searx string
	// Peers are other loops; Asks their queries to the session.
	Peers []string
	Asks  [][2]string
}

// Parse reads a scenario from txtar data.
func Parse(data []byte) (*Scenario, error) {
	ar := txtar.Parse(data)
	s := &Scenario{Files: map[string][]byte{}, After: map[string][]byte{}, Modes: map[string]os.FileMode{}, Touch: map[string]int{}, Until: map[int]string{}}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if !strings.HasPrefix(line, "!") {
			continue
		}
		f := strings.Fields(line[1:])
		if len(f) < 2 {
			return nil, fmt.Errorf("directive %q needs an argument", line)
		}
		switch f[0] {
		case "profile":
			s.Options.Profile = f[1]
		case "deny":
			s.Options.Deny = append(s.Options.Deny, f[1])
		case "max-file-size":
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("directive %q: %v", line, err)
			}
			s.Options.Limits.MaxFileSize = n
		case "mkdir":
			s.Mkdirs = append(s.Mkdirs, f[1])
		case "mkfifo":
			s.Specials = append(s.Specials, [2]string{"fifo", f[1]})
		case "socket":
			s.Specials = append(s.Specials, [2]string{"socket", f[1]})
		case "site":
			s.Site = f[1]
		case "peer":
			s.Peers = append(s.Peers, f[1])
		case "ask":
			if len(f) < 3 {
				return nil, fmt.Errorf("directive %q: want !ask PEER QUESTION", line)
			}
			s.Asks = append(s.Asks, [2]string{f[1], strings.Join(f[2:], " ")})
		case "searx":
			s.Searx = f[1]
		case "symlink":
			if len(f) != 3 {
				return nil, fmt.Errorf("directive %q: want !symlink LINK TARGET", line)
			}
			s.Links = append(s.Links, [2]string{f[1], f[2]})
		case "core":
			t, ok := coreTool(f[1])
			if !ok {
				return nil, fmt.Errorf("directive %q: no core tool %q", line, f[1])
			}
			s.Options.Tools = append(s.Options.Tools, t)
		case "touch":
			if len(f) != 3 {
				return nil, fmt.Errorf("directive %q: want !touch FILE SECONDS", line)
			}
			n, err := strconv.Atoi(f[2])
			if err != nil {
				return nil, fmt.Errorf("directive %q: %v", line, err)
			}
			s.Touch[f[1]] = n
		case "mode":
			s.Options.PermissionMode = f[1]
		case "shell":
			s.Options.Shell = f[1]
		case "project-settings":
			s.Options.ProjectSettings = f[1] == "on"
		case "chat":
			s.Chat = f[1]
		case "reply":
			var r tool.Reply
			if err := json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(line[1:], "reply"))), &r); err != nil {
				return nil, fmt.Errorf("directive %q: %v", line, err)
			}
			s.Replies = append(s.Replies, r)
		case "chmod":
			if len(f) != 3 {
				return nil, fmt.Errorf("directive %q: want !chmod MODE FILE", line)
			}
			m, err := strconv.ParseUint(f[1], 8, 32)
			if err != nil {
				return nil, fmt.Errorf("directive %q: %v", line, err)
			}
			s.Modes[f[2]] = os.FileMode(m)
		default:
			return nil, fmt.Errorf("unknown directive %q", line)
		}
	}
	for _, f := range ar.Files {
		switch {
		case f.Name == "call":
			for _, line := range strings.Split(string(f.Data), "\n") {
				if strings.TrimSpace(line) == "" {
					continue
				}
				var c struct {
					tool.Call
					Until *string `json:"until"`
				}
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					return nil, fmt.Errorf("call %q: %v", line, err)
				}
				if c.Until != nil {
					if *c.Until == "" {
						return nil, fmt.Errorf("call %q: until is empty; give the text the result must hold", line)
					}
					s.Until[len(s.Calls)] = *c.Until
				}
				s.Calls = append(s.Calls, c.Call)
			}
		case f.Name == "want":
			s.Want = string(f.Data)
		case strings.HasPrefix(f.Name, "after/"):
			s.After[strings.TrimPrefix(f.Name, "after/")] = f.Data
		default:
			s.Files[f.Name] = f.Data
		}
	}
	if len(s.Calls) == 0 {
		return nil, fmt.Errorf("scenario has no call section")
	}
	return s, nil
}

// coreTool returns the built-in tool with the core name name.
func coreTool(name string) (tool.Tool, bool) {
	for _, t := range tools.Builtins(tools.Limits{}) {
		if t.Info().Name == name {
			return t, true
		}
	}
	return nil, false
}

// Setup writes the workspace into root.
func (s *Scenario) Setup(root string) error {
	for name, data := range s.Files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if m, ok := s.Modes[name]; ok {
			mode = m
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			return err
		}
		if err := os.Chmod(p, mode); err != nil {
			return err
		}
	}
	for _, d := range s.Mkdirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return err
		}
	}
	for _, sp := range s.Specials {
		if err := makeSpecial(sp[0], filepath.Join(root, sp[1])); err != nil {
			return err
		}
	}
	for _, l := range s.Links {
		p := filepath.Join(root, l[0])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		target := strings.ReplaceAll(l[1], "$ROOT", root)
		if err := os.Symlink(target, p); err != nil {
			return err
		}
	}
	// Every file and directory gets the same fixed time unless touched, so
	// results ordered by modification time are deterministic. Directories
	// go last: writing the files moved their times.
	for name := range s.Files {
		at := baseTime.Add(time.Duration(s.Touch[name]) * time.Second)
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), at, at); err != nil {
			return err
		}
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		at := baseTime.Add(time.Duration(s.Touch[filepath.ToSlash(rel)]) * time.Second)
		return os.Chtimes(p, at, at)
	})
}

// baseTime is the modification time of workspace files.
var baseTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func runFile(t *testing.T, file string, h Hooks) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Setup(ws); err != nil {
		t.Fatal(err)
	}
	opts := s.Options
	opts.Roots = []string{ws}
	// Where the claude profile keeps its session files, as Claude Code
	// does: under the test's directory, not the user's.
	opts.ClaudeConfigDir = filepath.Join(root, "claude-config")
	opts.ClaudeTempDir = filepath.Join(root, "claude-tmp")
	if err := os.Mkdir(opts.ClaudeTempDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if len(s.Replies) > 0 {
		replies := s.Replies
		opts.AskUser = func(context.Context, tool.Prompt) (tool.Reply, error) {
			if len(replies) == 0 {
				return tool.Reply{}, fmt.Errorf("%w: the scenario has no more replies", tool.ErrNoUser)
			}
			r := replies[0]
			replies = replies[1:]
			return r, nil
		}
	}
	site := ""
	if s.Site != "" {
		srv := httptest.NewTLSServer(http.FileServer(http.Dir(filepath.Join(ws, filepath.FromSlash(s.Site)))))
		defer srv.Close()
		site = srv.URL
		opts.AllowHosts = append(opts.AllowHosts, "127.0.0.1")
		opts.WebTLS = srv.Client().Transport.(*http.Transport).TLSClientConfig
	}
	if s.Searx != "" {
		answer := filepath.Join(ws, filepath.FromSlash(s.Searx))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
				http.NotFound(w, r)
				return
			}
			http.ServeFile(w, r, answer)
		}))
		defer srv.Close()
		opts.Search = hands.SearchOptions{Backend: "searxng", URL: srv.URL}
	}
	var c *coord.Local
	if len(s.Peers) > 0 {
		c = coord.NewLocal()
		defer c.Close()
		opts.Coordinator, opts.ExecID = c, "loop"
	}
	if s.Chat != "" {
		opts.Model = scriptedChat(t, filepath.Join(ws, filepath.FromSlash(s.Chat)))
	}
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	sess, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if c != nil {
		startPeers(t, c, sess, s)
	}
	var got strings.Builder
	var agents []string // the agent ids the results named, in order
	for i, c := range s.Calls {
		if len(agents) > 0 {
			// $AGENT in a call is the agent the last task call started.
			c.Input = json.RawMessage(strings.ReplaceAll(string(c.Input), "$AGENT", agents[len(agents)-1]))
		}
		c.Input = json.RawMessage(strings.ReplaceAll(string(c.Input), "$ROOT", ws))
		c.Input = json.RawMessage(strings.ReplaceAll(string(c.Input), "$SESSION", sessionName(sess)))
		c.Input = json.RawMessage(claudeFiles(string(c.Input), opts, ws))
		if site != "" {
			c.Input = json.RawMessage(strings.ReplaceAll(string(c.Input), "$SITE", site))
		}
		res := sess.Call(context.Background(), c)
		if until, ok := s.Until[i]; ok {
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(res.TextOf(), until) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: call %d (%s) never returned %q; last:\n%s", file, i+1, c.Name, until, res.TextOf())
				}
				time.Sleep(10 * time.Millisecond) // polling a background task's real progress
				res = sess.Call(context.Background(), c)
			}
		}
		if h.Check != nil {
			h.Check(t, rt.Profile(), res)
		}
		for _, m := range agentID.FindAllStringSubmatch(res.TextOf(), -1) {
			agents = append(agents, strings.TrimPrefix(m[0], m[1]))
		}
		got.WriteString(Format(res))
	}
	out := got.String()
	if site != "" {
		out = strings.ReplaceAll(out, site, "$SITE")
	}
	out = strings.ReplaceAll(out, opts.ClaudeConfigDir, "$CLAUDE_CONFIG")
	out = strings.ReplaceAll(out, opts.ClaudeTempDir, "$CLAUDE_TMP")
	out = strings.ReplaceAll(out, claudedirs.Slug(ws), "$SLUG")
	out = uuid.ReplaceAllString(out, "$$UUID")
	out = strings.ReplaceAll(out, sess.TempDir(), "$TMP")
	out = strings.ReplaceAll(out, filepath.Dir(sess.TempDir()), "$SESSIONDIR")
	out = strings.ReplaceAll(out, sessionName(sess), "$SESSION")
	out = strings.ReplaceAll(out, ws, "$ROOT")
	out = strings.ReplaceAll(out, root, "$ROOT/..") // a path that left the root
	// A subagent's id and time change from run to run.
	out = agentID.ReplaceAllString(out, "${1}$$AGENT")
	for _, id := range agents {
		out = strings.ReplaceAll(out, id, "$AGENT")
	}
	out = timestamp.ReplaceAllString(out, "$$TIMESTAMP")
	out = strings.ReplaceAll(out, `"version":"`+hands.Version+`"`, `"version":"$VERSION"`)
	out = durationMS.ReplaceAllString(out, "duration_ms: $$MS")
	if h.Scrub != nil {
		out = h.Scrub(out)
	}
	after := map[string][]byte{}
	for name := range s.After {
		b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(name)))
		if err != nil {
			// The message names the temporary workspace; keep goldens stable.
			b = []byte("<missing: " + strings.ReplaceAll(err.Error(), ws, "$ROOT") + ">\n")
		}
		after[name] = b
	}
	if *update {
		if err := rewrite(file, data, out, after); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out != s.Want {
		t.Errorf("%s: results differ (run with -update to accept)\n--- got ---\n%s--- want ---\n%s", file, out, s.Want)
	}
	for name, want := range s.After {
		if !bytes.Equal(after[name], want) {
			t.Errorf("%s: after/%s differs\n--- got ---\n%q\n--- want ---\n%q", file, name, after[name], want)
		}
	}
}

// Format renders a result for a golden: a header line, then the content.
func Format(r tool.Result) string {
	var b strings.Builder
	if r.IsError {
		fmt.Fprintf(&b, "== %s error %s\n", r.Tool, r.Code)
	} else {
		fmt.Fprintf(&b, "== %s ok\n", r.Tool)
	}
	for _, c := range r.Content {
		switch c.Type {
		case "image":
			fmt.Fprintf(&b, "[image %s, %d bytes]\n", c.MIMEType, len(c.Data))
		default:
			b.WriteString(c.Text)
			if !strings.HasSuffix(c.Text, "\n") {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func rewrite(file string, data []byte, want string, after map[string][]byte) error {
	ar := txtar.Parse(data)
	var files []txtar.File
	for _, f := range ar.Files {
		if f.Name == "want" || strings.HasPrefix(f.Name, "after/") {
			continue
		}
		files = append(files, f)
	}
	files = append(files, txtar.File{Name: "want", Data: []byte(want)})
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "after/"); ok {
			files = append(files, txtar.File{Name: f.Name, Data: after[name]})
		}
	}
	ar.Files = files
	return os.WriteFile(file, txtar.Format(ar), 0o644)
}

// claudeFiles fills in, in a call's input, where the claude profile
// keeps its files as Claude Code does: $CLAUDE_CONFIG, $CLAUDE_TMP, $SLUG
// and $UUID, the session's (the one directory under the project's).
func claudeFiles(in string, opts hands.Options, ws string) string {
	slug := claudedirs.Slug(ws)
	if strings.Contains(in, "$UUID") {
		if ents, err := os.ReadDir(filepath.Join(opts.ClaudeConfigDir, "projects", slug)); err == nil && len(ents) == 1 {
			in = strings.ReplaceAll(in, "$UUID", ents[0].Name())
		}
	}
	return strings.NewReplacer("$CLAUDE_CONFIG", opts.ClaudeConfigDir, "$CLAUDE_TMP", opts.ClaudeTempDir, "$SLUG", slug).Replace(in)
}

// sessionName is the name of a session's directory, which names its plan
// file.
func sessionName(sess *hands.Session) string {
	return filepath.Base(filepath.Dir(sess.TempDir()))
}

// startPeers joins the scenario's peers to c, answering queries, and has
// them ask the session their questions; it returns once the session has
// received every question, and drains the session's later events.
func startPeers(t *testing.T, c *coord.Local, sess *hands.Session, s *Scenario) {
	t.Helper()
	peers := map[string]coord.Member{}
	for _, name := range s.Peers {
		m, err := c.Join(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		peers[name] = m
		go func() {
			for msg := range m.Incoming() {
				if msg.Kind == coord.KindQuery {
					msg.Reply(name + " heard: " + msg.Question)
				}
			}
		}()
	}
	for _, a := range s.Asks {
		m, ok := peers[a[0]]
		if !ok {
			t.Fatalf("!ask %s: no !peer %s", a[0], a[0])
		}
		go m.Query(context.Background(), "loop", a[1], time.Minute)
		if ev := <-sess.Coordination(); ev.Message == nil || ev.Message.Question != a[1] {
			t.Fatalf("!ask %s: the session received %+v", a[0], ev)
		}
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for {
			select {
			case <-sess.Coordination():
			case <-done:
				return
			}
		}
	}()
}
