package hands_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

func writeJSON(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsMerge checks that the lists of every settings file apply
// (user, project, local, --settings, --config), that defaultMode comes
// from the highest file that sets it, and that additionalDirectories
// become roots.
func TestSettingsMerge(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	extra, _ := filepath.EvalSymlinks(t.TempDir())
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), `{"model":"x","permissions":{"deny":["Bash(rm:*)"],"defaultMode":"plan"}}`)
	writeJSON(t, filepath.Join(root, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(git status)","Bash(touch:*)"],"defaultMode":"acceptEdits","additionalDirectories":["`+extra+`"]}}`)
	writeJSON(t, filepath.Join(root, ".claude", "settings.local.json"), `{"permissions":{"ask":["Bash(touch b:*)"]}}`)
	flagFile := filepath.Join(t.TempDir(), "flag.json")
	writeJSON(t, flagFile, `{"permissions":{"deny":["Bash(touch c:*)"]}}`)
	rt, err := hands.New(hands.Options{Roots: []string{root}, ProjectSettings: true, Settings: []string{flagFile},
		Permissions: hands.PermissionRules{Deny: []string{"Bash(touch d:*)"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if got := rt.Roots(); len(got) != 2 || got[1] != extra {
		t.Errorf("roots %v: additionalDirectories is not a root", got)
	}
	s, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m := s.PermissionMode(); m != "acceptEdits" {
		t.Errorf("mode %s: the project's defaultMode is over the user's", m)
	}
	ctx := context.Background()
	bash := func(cmd string) tool.Result {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		return s.Call(ctx, tool.Call{Name: "bash", Input: in})
	}
	for cmd, want := range map[string]string{
		"rm -f x":   "deny rule Bash(rm:*) (" + filepath.Join(home, ".claude", "settings.json") + ")",
		"touch b":   "was not permitted", // the local file's ask, no one to ask
		"touch c":   "deny rule Bash(touch c:*) (" + flagFile + ")",
		"touch d":   "deny rule Bash(touch d:*) (the permissions of --config",
		"touch a":   "",
		"npm --foo": "was not permitted",
	} {
		res := bash(cmd)
		if want == "" {
			if res.IsError {
				t.Errorf("%q: %s", cmd, res.TextOf())
			}
			continue
		}
		if !res.IsError || res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), want) {
			t.Errorf("%q: %s, want a denial saying %q", cmd, res.TextOf(), want)
		}
	}
	for _, f := range []string{"b", "c", "d"} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			t.Errorf("touch %s ran", f)
		}
	}
	// acceptEdits: an edit inside the roots runs without asking.
	in, _ := json.Marshal(map[string]string{"path": filepath.Join(extra, "n.txt"), "content": "n"})
	if res := s.Call(ctx, tool.Call{Name: "create_file", Input: in}); res.IsError {
		t.Errorf("write in acceptEdits: %s", res.TextOf())
	}
}

// TestSettingsErrors checks that a malformed rule, an unknown key or mode,
// and bypass without AllowBypass stop the start-up with a message naming
// the file and what is wrong.
func TestSettingsErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	for _, c := range []struct {
		settings string
		opts     hands.Options
		want     []string
	}{
		{`{"permissions":{"deny":["Bash(rm -rf:*"]}}`, hands.Options{}, []string{"settings.json", `"Bash(rm -rf:*"`, "not closed"}},
		{`{"permissions":{"allow":["Bahs(ls)"]}}`, hands.Options{}, []string{"permissions.allow", "unknown tool"}},
		{`{"permissions":{"alow":["Bash(ls)"]}}`, hands.Options{}, []string{"unknown key permissions.alow"}},
		{`{"permissions":{"defaultMode":"yolo"}}`, hands.Options{}, []string{"defaultMode", "yolo"}},
		{`{"permissions":{"allow":"Bash"}}`, hands.Options{}, []string{"lists of strings"}},
		{`{"permissions":`, hands.Options{}, []string{"not a JSON object"}},
		{`{"permissions":{"defaultMode":"bypassPermissions"}}`, hands.Options{}, []string{"--allow-bypass"}},
		{`{}`, hands.Options{PermissionMode: "bypassPermissions"}, []string{"--allow-bypass"}},
		{`{}`, hands.Options{Settings: []string{"/nonexistent/s.json"}}, []string{"/nonexistent/s.json", "does not exist"}},
	} {
		writeJSON(t, filepath.Join(root, ".claude", "settings.json"), c.settings)
		o := c.opts
		o.Roots, o.ProjectSettings = []string{root}, true
		rt, err := hands.New(o)
		if err == nil {
			rt.Close()
			t.Errorf("%s %+v: started", c.settings, c.opts)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.settings, err, w)
			}
		}
	}
	writeJSON(t, filepath.Join(root, ".claude", "settings.json"), `{"permissions":{"defaultMode":"bypassPermissions"}}`)
	rt, err := hands.New(hands.Options{Roots: []string{root}, ProjectSettings: true, AllowBypass: true})
	if err != nil {
		t.Fatalf("bypass with AllowBypass: %v", err)
	}
	rt.Close()
}

// TestLibraryAsksTheUser: Options.AskUser answers plan approvals and
// questions; with only Options.Ask a plan is a yes-or-no question and
// questions cannot be asked; with neither, nothing can be asked.
func TestLibraryAsksTheUser(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	ctx := context.Background()
	run := func(s *hands.Session, name, args string) tool.Result {
		return s.Call(ctx, tool.Call{Name: name, Input: json.RawMessage(args)})
	}
	const q = `{"questions":[{"question":"Which?","header":"H","multiSelect":false,"options":[{"label":"A","description":"a"},{"label":"B","description":"b"}]}]}`
	var prompts []tool.Prompt
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, AskUser: func(_ context.Context, p tool.Prompt) (tool.Reply, error) {
		prompts = append(prompts, p)
		if len(p.Questions) > 0 {
			return tool.Reply{Accepted: true, Answers: map[string]string{p.Questions[0].Question: "B"}}, nil
		}
		return tool.Reply{Accepted: p.Plan == "good"}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	if res := run(s, "ask_user_question", q); res.IsError || !strings.Contains(res.TextOf(), `"Which?"="B"`) {
		t.Errorf("questions: %s", res.TextOf())
	}
	run(s, "enter_plan_mode", `{}`)
	if s.PermissionMode() != "plan" {
		t.Fatalf("mode %s after enter_plan_mode", s.PermissionMode())
	}
	if res := run(s, "exit_plan_mode", `{"plan":"bad"}`); !res.IsError || s.PermissionMode() != "plan" {
		t.Errorf("rejected plan: %s, mode %s", res.TextOf(), s.PermissionMode())
	}
	if res := run(s, "exit_plan_mode", `{"plan":"good"}`); res.IsError || s.PermissionMode() != "default" {
		t.Errorf("approved plan: %s, mode %s", res.TextOf(), s.PermissionMode())
	}
	if len(prompts) != 3 {
		t.Errorf("%d prompts, want 3", len(prompts))
	}

	yes := 0
	rt2, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Ask: func(context.Context, tool.Info, tool.Call, string) (bool, error) {
		yes++
		return true, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	s2, _ := rt2.NewSession()
	defer s2.Close()
	run(s2, "enter_plan_mode", `{}`)
	if res := run(s2, "exit_plan_mode", `{"plan":"p"}`); res.IsError || yes != 1 {
		t.Errorf("plan through Options.Ask: %s", res.TextOf())
	}
	if res := run(s2, "ask_user_question", q); !res.IsError || !strings.Contains(res.TextOf(), "no user can be asked") {
		t.Errorf("questions through Options.Ask: %s", res.TextOf())
	}

	rt3, _ := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	defer rt3.Close()
	s3, _ := rt3.NewSession()
	defer s3.Close()
	if res := run(s3, "ask_user_question", q); !res.IsError || !strings.Contains(res.TextOf(), "no user can be asked") {
		t.Errorf("questions with no asker: %s", res.TextOf())
	}
	if err := s3.SetPermissionMode("bypassPermissions"); err == nil {
		t.Error("bypassPermissions without AllowBypass")
	}
}

// TestNoSettingsKeepsCallsOpen: without any settings, calls run as before
// (an MCP host gates them itself), and plan mode still restricts.
func TestNoSettingsKeepsCallsOpen(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	rt, err := hands.New(hands.Options{Roots: []string{root}, ProjectSettings: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	ctx := context.Background()
	if res := s.Call(ctx, tool.Call{Name: "bash", Input: json.RawMessage(`{"command":"echo $(echo hi) > out.txt"}`)}); res.IsError {
		t.Errorf("open session: %s", res.TextOf())
	}
	s.SetPermissionMode("plan")
	if res := s.Call(ctx, tool.Call{Name: "create_file", Input: json.RawMessage(`{"path":"p.txt","content":"p"}`)}); !res.IsError {
		t.Error("a write ran in plan mode")
	}
	if _, err := os.Stat(filepath.Join(root, "p.txt")); err == nil {
		t.Error("p.txt was written")
	}
}

// TestReadmePermissionsParse keeps the README's settings example valid.
func TestReadmePermissionsParse(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "### Permissions")
	_, block, ok2 := strings.Cut(after, "```json\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("no settings example under ### Permissions")
	}
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "..", "shared-lib"), 0o755)
	writeJSON(t, filepath.Join(root, ".claude", "settings.json"), block)
	rt, err := hands.New(hands.Options{Roots: []string{root}, ProjectSettings: true})
	if err != nil {
		t.Fatalf("the README's example: %v", err)
	}
	rt.Close()
}

// TestReadDenyHidesFromSearches: a Read deny rule keeps the file from
// grep, glob and the shell's view of the sandbox, not only from Read.
func TestReadDenyHidesFromSearches(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeJSON(t, filepath.Join(root, "secrets", "key.txt"), "TOKEN-key-secret\n")
	writeJSON(t, filepath.Join(root, "deep", "prod.env"), "TOKEN-env-secret\n")
	writeJSON(t, filepath.Join(root, "ok.txt"), "TOKEN-public\n")
	rt, err := hands.New(hands.Options{Roots: []string{root}, Permissions: hands.PermissionRules{Deny: []string{"Read(./secrets/**)", "Read(*.env)"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	ctx := context.Background()
	res := s.Call(ctx, tool.Call{Name: "grep", Input: json.RawMessage(`{"pattern":"TOKEN","output_mode":"content"}`)})
	if out := res.TextOf(); strings.Contains(out, "secret") || !strings.Contains(out, "TOKEN-public") {
		t.Errorf("grep: %s", out)
	}
	res = s.Call(ctx, tool.Call{Name: "view", Input: json.RawMessage(`{"path":"secrets/key.txt"}`)})
	if !res.IsError || strings.Contains(res.TextOf(), "TOKEN-key-secret") {
		t.Errorf("view: %s", res.TextOf())
	}
	res = s.Call(ctx, tool.Call{Name: "glob", Input: json.RawMessage(`{"pattern":"**/*"}`)})
	if strings.Contains(res.TextOf(), "prod.env") || strings.Contains(res.TextOf(), "key.txt") {
		t.Errorf("glob: %s", res.TextOf())
	}
}
