package hands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

type bigIn struct {
	N int `json:"n"`
}

type bigOut struct {
	Text string `json:"text"`
}

// bigTool returns n characters, over its result bound of 100.
func bigTool() tool.Tool {
	return tool.New(tool.Spec[bigIn]{Name: "big", Description: "returns n characters", ReadOnly: true, MaxResultChars: 100},
		func(_ context.Context, _ *tool.Env, in bigIn) (bigOut, error) {
			return bigOut{Text: strings.Repeat("x", in.N)}, nil
		})
}

func plantSession(t *testing.T, opts hands.Options) (*hands.Session, string, *hands.Runtime) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	opts.Tools = append(opts.Tools, bigTool())
	sess, rt := sessionIn(t, root, opts)
	return sess, root, rt
}

// sessionIn opens a session of a runtime over root, both closed at the
// end of the test.
func sessionIn(t *testing.T, root string, opts hands.Options) (*hands.Session, *hands.Runtime) {
	t.Helper()
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
	return sess, rt
}

var savedIn = regexp.MustCompile(`saved in (\S+)`)

// An oversized result is saved where commands cannot write, and a link
// planted at the name it would take is refused, never written through.
// NoSandbox: the command has the server's rights, the worst case.
func TestSavedResultNotWrittenThroughPlantedLink(t *testing.T) {
	sess, root, _ := plantSession(t, hands.Options{NoSandbox: true})
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("precious\n"), 0o600)

	res := call(sess, "big", `{"n":500}`)
	m := savedIn.FindStringSubmatch(res.TextOf())
	if m == nil {
		t.Fatalf("no saved path in %q", res.TextOf())
	}
	first := m[1]
	if strings.HasPrefix(first, sess.TempDir()) || strings.HasPrefix(first, root) {
		t.Errorf("result saved in %s, inside the commands' TMPDIR %s or a root", first, sess.TempDir())
	}
	dir := filepath.Dir(first)
	// Plant links at the next names the server will use.
	for n := 2; n < 6; n++ {
		link := filepath.Join(dir, fmt.Sprintf("result-%03d.txt", n))
		if err := os.Symlink(outside, link); err != nil {
			t.Fatal(err)
		}
	}
	res = call(sess, "big", `{"n":700}`)
	m = savedIn.FindStringSubmatch(res.TextOf())
	if m == nil {
		t.Fatalf("no saved path in %q", res.TextOf())
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
		t.Fatalf("the file outside was written through a planted link: %q", b)
	}
	fi, err := os.Lstat(m[1])
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 700 {
		t.Errorf("saved %s: %v %v", m[1], fi, err)
	}
}

// Under confinement a command cannot write the results directory at all.
func TestCommandsCannotWriteSavedResults(t *testing.T) {
	sess, _, rt := plantSession(t, hands.Options{})
	res := call(sess, "big", `{"n":500}`)
	m := savedIn.FindStringSubmatch(res.TextOf())
	if m == nil {
		t.Fatalf("no saved path in %q", res.TextOf())
	}
	if !strings.Contains(rt.Confinement(), "enforced") {
		t.Skip("command confinement is not enforced here")
	}
	dir := filepath.Dir(m[1])
	res = call(sess, "bash", fmt.Sprintf(`{"command":"ln -s /etc/passwd %s/result-009.txt; echo x > %s; ls %s"}`, dir, m[1], dir))
	if b, _ := os.ReadFile(m[1]); strings.HasPrefix(string(b), "x") {
		t.Errorf("a command overwrote the saved result: %s", res.TextOf())
	}
	if _, err := os.Lstat(filepath.Join(dir, "result-009.txt")); err == nil {
		t.Errorf("a command planted a link in the results directory: %s", res.TextOf())
	}
}

// Files planted in the commands' TMPDIR under any name the server once
// used (the final directory's file), a FIFO or a link to /dev/zero, make
// no bash call hang or the server read without end.
func TestTempDirPlantsDoNotHangBash(t *testing.T) {
	sess, root, _ := plantSession(t, hands.Options{})
	var plant []string
	for i := 1; i < 10; i++ {
		plant = append(plant, fmt.Sprintf(`mkfifo $TMPDIR/.bash-%d.cwd; ln -sf /dev/zero $TMPDIR/.bash-%d.cwd.z; ln -s /dev/zero $TMPDIR/bash-%d.output`, i, i, i))
	}
	res := call(sess, "bash", fmt.Sprintf(`{"command":%q}`, strings.Join(plant, "; ")))
	if res.IsError {
		t.Fatalf("planting: %s", res.TextOf())
	}
	for i := range 5 {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res := sess.Call(ctx, tool.Call{Name: "bash", Input: json.RawMessage(fmt.Sprintf(`{"command":"cd %s && seq 1 %d","timeout":10000}`, root, 20000*i))})
		cancel()
		if res.IsError || time.Since(start) > 30*time.Second {
			t.Fatalf("call %d after the plants: %s (%v)", i, res.TextOf(), time.Since(start))
		}
	}
	if sess.Cwd() != root {
		t.Errorf("cwd %s, want %s", sess.Cwd(), root)
	}
}

// Closing a session removes its directory even when a command made parts
// of it unwritable.
func TestSessionCloseRemovesUnwritableTemp(t *testing.T) {
	sess, _, _ := plantSession(t, hands.Options{})
	res := call(sess, "bash", `{"command":"mkdir -p $TMPDIR/a/b/c && touch $TMPDIR/a/b/c/f && chmod 000 $TMPDIR/a/b/c && chmod 500 $TMPDIR/a/b && chmod 000 $TMPDIR/a"}`)
	if res.IsError {
		t.Fatal(res.TextOf())
	}
	dir := filepath.Dir(sess.TempDir())
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Errorf("session dir %s left behind", dir)
	}
}

// A server killed with SIGKILL leaves its private directory; the next
// Runtime removes it, and leaves a live one's alone.
func TestStaleRuntimeDirsRemoved(t *testing.T) {
	parent := t.TempDir()
	t.Setenv("TMPDIR", parent)
	// A directory of a dead process: a PID over the kernel's maximum.
	stale := filepath.Join(parent, "hands-4194305-abc")
	os.MkdirAll(filepath.Join(stale, "hands-session-x", "tmp"), 0o700)
	os.WriteFile(filepath.Join(stale, ".lock"), nil, 0o600)
	// One that is not a runtime directory.
	other := filepath.Join(parent, "hands-notes")
	os.Mkdir(other, 0o700)

	live, err := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := os.Lstat(stale); err == nil {
		t.Errorf("stale dir %s not removed", stale)
	}
	if _, err := os.Lstat(other); err != nil {
		t.Errorf("%s removed: %v", other, err)
	}
	ents, _ := filepath.Glob(filepath.Join(parent, fmt.Sprintf("hands-%d-*", os.Getpid())))
	if len(ents) != 1 {
		t.Fatalf("live runtime dirs %v", ents)
	}
	rt2, err := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(ents[0]); err != nil {
		t.Errorf("a live runtime's dir was removed: %v", err)
	}
	rt2.Close()
	live.Close()
	if left, _ := os.ReadDir(parent); len(left) != 1 {
		t.Errorf("left in TMPDIR after Close: %v", left)
	}
}
