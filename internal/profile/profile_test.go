package profile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// TestProfilesExposeTheCore applies every profile to the core tools: each
// entry whose core tool exists is exposed under its name, with its
// parameters in its order, every one described, and no alias or hidden
// parameter in the schema.
func TestProfilesExposeTheCore(t *testing.T) {
	if got := profile.Names(); !slices.Equal(got, []string{"claude", "envelope", "gemini", "native", "taskdaemon"}) {
		t.Errorf("profiles %v", got)
	}
	core := map[string]bool{}
	for _, c := range tools.Builtins(tools.Limits{}) {
		core[c.Info().Name] = true
	}
	for _, name := range profile.Names() {
		p, err := profile.Get(name, tools.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		exposed := map[string]tool.Info{}
		for _, tl := range p.Apply(tools.Builtins(tools.Limits{})) {
			exposed[tl.Info().Name] = tl.Info()
		}
		for _, e := range p.Tools {
			info, ok := exposed[e.Name]
			if !ok || !core[e.Core] {
				t.Errorf("%s: %s exposed %v, core %s present %v", name, e.Name, ok, e.Core, core[e.Core])
			}
			if !ok || e.Params == nil {
				continue
			}
			props := propertyNames(t, info.InputSchema)
			var want []string
			for _, p := range e.Params {
				want = append(want, p.Name)
			}
			if !slices.Equal(props, want) {
				t.Errorf("%s %s: schema properties %v, want %v", name, e.Name, props, want)
			}
			var s struct {
				Properties map[string]struct {
					Description string `json:"description"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(info.InputSchema, &s); err != nil {
				t.Fatal(err)
			}
			for pn, ps := range s.Properties {
				if ps.Description == "" {
					t.Errorf("%s %s: parameter %s has no description", name, e.Name, pn)
				}
			}
			if info.Description == "" {
				t.Errorf("%s %s: no description", name, e.Name)
			}
		}
	}
	if _, err := profile.Get("copilot", tools.Limits{}); err == nil || !strings.Contains(err.Error(), "claude, envelope, gemini, native, taskdaemon") {
		t.Errorf("unknown profile: %v", err)
	}
}

func propertyNames(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	var names []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tk, _ := dec.Token()
		names = append(names, tk.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return names
}

// session starts a session of profile over a workspace holding files.
func session(t *testing.T, prof string, files map[string]string) (*hands.Session, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rt, err := hands.New(hands.Options{Roots: []string{root}, Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	s, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, root
}

func call(s *hands.Session, name, input string) tool.Result {
	return s.Call(context.Background(), tool.Call{ID: "t", Name: name, Input: json.RawMessage(input)})
}

// TestGeminiReadIsTheExactContent pins what the txtar goldens cannot show:
// read_file returns the file byte for byte, final line break and CRLF
// endings included.
func TestGeminiReadIsTheExactContent(t *testing.T) {
	s, _ := session(t, "gemini", map[string]string{"lf.txt": "a\nb\n", "crlf.txt": "a\r\nb\r\n", "open.txt": "a\nb"})
	for name, want := range map[string]string{"lf.txt": "a\nb\n", "crlf.txt": "a\r\nb\r\n", "open.txt": "a\nb"} {
		if got := call(s, "read_file", `{"file_path":"`+name+`"}`).TextOf(); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestGeminiShellReportsTheRealProcessGroup checks the PGID line of seed
// 001's block against the process group the command itself sees.
func TestGeminiShellReportsTheRealProcessGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	s, _ := session(t, "gemini", nil)
	res := call(s, "run_shell_command", `{"command":"cut -d' ' -f5 /proc/self/stat; cut -d' ' -f5 /proc/$$/stat"}`)
	m := regexp.MustCompile(`(?s)Stdout: (\d+)\n(\d+)\n.*Process Group PGID: (\d+)$`).FindStringSubmatch(res.TextOf())
	if m == nil {
		t.Fatalf("unexpected block:\n%s", res.TextOf())
	}
	if m[1] != m[3] || m[2] != m[3] || m[3] == "0" {
		t.Errorf("the command ran in process groups %s and %s; the block says %s", m[1], m[2], m[3])
	}
	if out, ok := res.Structured.(*tools.BashOutput); !ok || m[3] != itoa(out.PGID) {
		t.Errorf("structured content %#v does not carry the same PGID", res.Structured)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestStructuredContentIsTheCoreOutput: a profile re-renders the text; the
// structured content stays the core's output value, for library callers
// and MCP clients alike.
func TestStructuredContentIsTheCoreOutput(t *testing.T) {
	s, root := session(t, "claude", map[string]string{"a.txt": "x\n"})
	res := call(s, "Read", `{"file_path":"`+root+`/a.txt"}`)
	out, ok := res.Structured.(*tools.ReadOutput)
	if !ok || out.Path != root+"/a.txt" || res.TextOf() != "     1\u2192x\n     2\u2192" {
		t.Errorf("structured %#v, text %q", res.Structured, res.TextOf())
	}
	res = call(s, "Read", `{"file_path":"`+root+`/none.txt"}`)
	if ed, ok := res.Structured.(tool.ErrorData); !ok || ed.Code != tool.PathNotFound || strings.Contains(res.TextOf(), "PATH_NOT_FOUND") {
		t.Errorf("error structured %#v, text %q", res.Structured, res.TextOf())
	}
}

// TestArgumentsAreTranslated covers the argument mapping: names, aliases,
// nested items, defaults, fixed values, and refusals that name the
// exposed parameters.
func TestArgumentsAreTranslated(t *testing.T) {
	s, _ := session(t, "claude", nil)
	res := call(s, "TodoWrite", `{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"}]}`)
	if res.IsError {
		t.Fatalf("TodoWrite: %s", res.TextOf())
	}
	for input, want := range map[string]string{
		`{"todos":[{"title":"x","status":"pending","activeForm":"X"}]}`: "unknown parameter title in todos[0]",
		`{"todos":[{"status":"pending","activeForm":"X"}]}`:             "missing required parameter content in todos[0]",
		`{"todos":"x"}`:               "The parameter \x60todos\x60 type is expected as \x60array\x60 but provided as \x60string\x60",
		`{"todos":[],"path":"a.txt"}`: "unknown parameter path; the parameters are todos",
		`[1]`:                         "arguments of TodoWrite must be a JSON object",
		`{`:                           "arguments of TodoWrite are not valid JSON",
	} {
		res := call(s, "TodoWrite", input)
		if res.Code != tool.InvalidInput || !strings.Contains(res.TextOf(), want) {
			t.Errorf("%s: %s %q, want %q", input, res.Code, res.TextOf(), want)
		}
	}

	g, _ := session(t, "gemini", map[string]string{"a.go": "package a\n"})
	// Gemini CLI 0.1.13 ignores parameters it does not have: a fixed core
	// parameter is among them, and is not the model's to set.
	res = call(g, "search_file_content", `{"pattern":"package","output_mode":"count"}`)
	if res.IsError || !strings.Contains(res.TextOf(), "L1: package a") {
		t.Errorf("a fixed core parameter is not the model's to set: %q", res.TextOf())
	}
	res = call(g, "search_file_content", `{"pattern":"package","path":"."}`)
	if res.IsError || !strings.Contains(res.TextOf(), `Found 1 match for pattern "package" in path "."`) {
		t.Errorf("dir_path, an alias of path: %q", res.TextOf())
	}
}

// TestErrorsRenameParametersNotPaths: messages speak of the exposed
// parameter names, but a path that happens to hold a core name is left
// as it is.
func TestErrorsRenameParametersNotPaths(t *testing.T) {
	s, root := session(t, "taskdaemon", map[string]string{"old_str/a.txt": "x\n"})
	res := call(s, "edit_file", `{"path":"old_str/a.txt","old_string":"","new_string":"y"}`)
	if !strings.Contains(res.TextOf(), "old_string is empty") {
		t.Errorf("validation message %q names the core parameter", res.TextOf())
	}
	res = call(s, "edit_file", `{"path":"old_str/missing.txt","old_string":"a","new_string":"b"}`)
	if want := "File not found: old_str/missing.txt"; !strings.Contains(res.TextOf(), want) {
		t.Errorf("%q, want %q", res.TextOf(), want)
	}
	if ed := res.Structured.(tool.ErrorData); ed.Details["path"] != root+"/old_str/missing.txt" {
		t.Errorf("details %v", ed.Details)
	}
}

// TestSwitchesFollowTheProfile: the file policy and shell switches a
// profile sets reach the session.
func TestSwitchesFollowTheProfile(t *testing.T) {
	for prof, want := range map[string]struct {
		write, edit bool // allowed without a read
	}{
		"native": {}, "claude": {}, "taskdaemon": {write: true}, "gemini": {write: true, edit: true}, "envelope": {write: true},
	} {
		p, _ := profile.Get(prof, tools.Limits{})
		b := p.Behavior
		if b.WriteWithoutRead != want.write || b.EditWithoutRead != want.edit || b.ReadFilesOnly == (prof == "native") {
			t.Errorf("%s: file switches %+v", prof, b)
		}
		if b.SeparateStreams != (prof == "gemini" || prof == "taskdaemon") || b.RejectSubstitution || b.RejectDollarParen != (prof == "gemini") || b.FreshShell != (prof == "gemini") {
			t.Errorf("%s: shell switches %+v", prof, b)
		}
		if b.CommandFailureIsError != (prof == "claude" || prof == "taskdaemon") {
			t.Errorf("%s: command failure switch %+v", prof, b)
		}
	}
	s, _ := session(t, "native", map[string]string{"sub/a.txt": "x"})
	if res := call(s, "view", `{"path":"sub"}`); res.IsError {
		t.Errorf("native lists a directory through view: %s", res.TextOf())
	}
	s, _ = session(t, "envelope", map[string]string{"a.txt": "x"})
	if res := call(s, "bash", `{"command":"echo $(echo substituted)"}`); res.IsError || !strings.Contains(res.TextOf(), "substituted") {
		t.Errorf("only gemini refuses substitution: %s", res.TextOf())
	}
}
