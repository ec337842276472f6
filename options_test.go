package hands_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

// optionsSession starts a session with opts over a new temporary root
// (symbolic links resolved) and returns it with the root.
func optionsSession(t *testing.T, opts hands.Options) (*hands.Session, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := sessionIn(t, root, opts)
	return sess, root
}

// TestBehaviorIsAnOption sets the switches a profile would set on the
// native profile: an edit without a read, and a failing command as an
// error.
func TestBehaviorIsAnOption(t *testing.T) {
	b, err := hands.ProfileBehavior("native")
	if err != nil {
		t.Fatal(err)
	}
	b.EditWithoutRead, b.CommandFailureIsError = true, true
	sess, root := optionsSession(t, hands.Options{Behavior: &b})
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := call(sess, "str_replace", `{"path":"a.txt","old_str":"hello","new_str":"bye"}`); res.IsError {
		t.Errorf("edit without read refused: %s", res.TextOf())
	}
	res := call(sess, "bash", `{"command":"echo out; exit 3"}`)
	if !res.IsError || res.Code != hands.CommandFailed || !strings.Contains(res.TextOf(), "status 3") || !strings.Contains(res.TextOf(), "out") {
		t.Errorf("failing command: %v %s %q", res.IsError, res.Code, res.TextOf())
	}
	// The profile's defaults are untouched without the option.
	plain, root2 := optionsSession(t, hands.Options{})
	os.WriteFile(filepath.Join(root2, "a.txt"), []byte("hello\n"), 0o644)
	if res := call(plain, "str_replace", `{"path":"a.txt","old_str":"hello","new_str":"bye"}`); res.Code != hands.FileNotViewed {
		t.Errorf("native edit without read: %s", res.TextOf())
	}
	if res := call(plain, "bash", `{"command":"exit 3"}`); res.IsError {
		t.Errorf("native failing command is an error: %s", res.TextOf())
	}
}

// TestLimitsReachTheTools checks that one Limits value bounds the tools
// and fills their descriptions.
func TestLimitsReachTheTools(t *testing.T) {
	sess, root := optionsSession(t, hands.Options{Limits: hands.Limits{MaxFileSize: 10, BashTimeout: 1500 * time.Millisecond, ReadLines: 2}})
	os.WriteFile(filepath.Join(root, "big.txt"), []byte("0123456789abc"), 0o644)
	if res := call(sess, "view", `{"path":"big.txt"}`); res.Code != hands.FileTooLarge || !strings.Contains(res.TextOf(), "10-byte limit") {
		t.Errorf("read over the size limit: %s", res.TextOf())
	}
	os.WriteFile(filepath.Join(root, "lines.txt"), []byte("a\nb\nc\n"), 0o644)
	if res := call(sess, "view", `{"path":"lines.txt"}`); strings.Contains(res.TextOf(), "c") && !strings.Contains(res.TextOf(), "offset 3") {
		t.Errorf("read lines limit: %s", res.TextOf())
	}
	if res := call(sess, "bash", `{"command":"sleep 5"}`); res.IsError || !strings.Contains(res.TextOf(), "1500") {
		t.Errorf("bash default timeout: %s", res.TextOf())
	}
	if _, err := hands.New(hands.Options{Roots: []string{root}, Limits: hands.Limits{BashTimeout: time.Hour}}); err == nil {
		t.Error("a bash timeout over the maximum was accepted")
	}
}

// TestPolicySeesResolvedPaths checks that the permissions stage gets the
// input with its path resolved against the working directory and roots.
func TestPolicySeesResolvedPaths(t *testing.T) {
	var seen []string
	policy := tool.PolicyFunc(func(_ context.Context, _ tool.Info, _ tool.Call, in any) (tool.Decision, string) {
		if p, ok := in.(tool.Pather); ok {
			seen = append(seen, p.Paths()...)
		}
		return tool.Allow, ""
	})
	sess, root := optionsSession(t, hands.Options{Policy: policy})
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "a.txt"), []byte("x\n"), 0o644)
	os.Symlink("sub/a.txt", filepath.Join(root, "link"))
	call(sess, "view", `{"path":"link"}`)
	call(sess, "grep", `{"pattern":"x","path":"sub"}`)
	call(sess, "create_file", `{"path":"new/b.txt","content":"y"}`)
	want := []string{root + "/sub/a.txt", root + "/sub", root + "/new/b.txt"}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Errorf("policy saw %v, want %v", seen, want)
	}
}

// TestChangeAfterValidationIsCaught changes a file between the validation
// stage (which checked that the session read it) and execution, from a
// PreToolUse hook: the edit must notice and refuse, losing nothing.
func TestChangeAfterValidationIsCaught(t *testing.T) {
	var root string
	hook := func(_ context.Context, _ *tool.Env, _ tool.Info, c tool.Call) tool.HookDecision {
		if c.Name != "view" {
			os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello, changed by someone else\n"), 0o644)
			os.WriteFile(filepath.Join(root, "b.txt"), []byte("changed\n"), 0o644)
		}
		return tool.HookDecision{}
	}
	sess, r := optionsSession(t, hands.Options{Hooks: tool.Hooks{PreToolUse: []tool.PreToolUse{hook}}})
	root = r
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("hello\n"), 0o644)
	call(sess, "view", `{"path":"a.txt"}`)
	call(sess, "view", `{"path":"b.txt"}`)
	if res := call(sess, "str_replace", `{"path":"a.txt","old_str":"hello","new_str":"bye"}`); res.Code != hands.FileChanged {
		t.Errorf("edit after a change: %s %s", res.Code, res.TextOf())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "hello, changed by someone else\n" {
		t.Errorf("the other change was lost: %q", b)
	}
	if res := call(sess, "create_file", `{"path":"b.txt","content":"mine"}`); res.Code != hands.FileChanged {
		t.Errorf("overwrite after a change: %s %s", res.Code, res.TextOf())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b.txt")); string(b) != "changed\n" {
		t.Errorf("the other change was lost: %q", b)
	}
}
