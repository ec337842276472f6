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
