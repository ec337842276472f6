package hands_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
)

func optionsSession(t *testing.T, opts hands.Options) (*hands.Session, string) {
	t.Helper()
	root := t.TempDir()
	opts.Roots = []string{root}
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	sess, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
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
