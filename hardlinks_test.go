package hands_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
)

// A file outside the roots hard-linked into one before Hands started: the
// choice is to keep it (refusing would break pnpm's node_modules and a
// `git clone --local`), so reads see it, a write or edit replaces the name
// in the root and never changes the outside file, and HardLinks (for
// `hands doctor`) reports it.
func TestHardLinkedFileKeptAndWritesDoNotReachOutside(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outsideDir := filepath.Join(filepath.Dir(root), filepath.Base(root)+"-outside")
	os.Mkdir(outsideDir, 0o755)
	t.Cleanup(func() { os.RemoveAll(outsideDir) })
	outside := filepath.Join(outsideDir, "orig.txt")
	os.WriteFile(outside, []byte("outside content\n"), 0o644)
	inside := filepath.Join(root, "linked.txt")
	if err := os.Link(outside, inside); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	os.WriteFile(filepath.Join(root, "plain.txt"), []byte("plain\n"), 0o644)

	rt, err := hands.New(hands.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	hl, err := rt.HardLinks(context.Background(), 0)
	if err != nil || hl.Files != 1 || !hl.Complete || len(hl.Examples) != 1 || hl.Examples[0] != inside {
		t.Errorf("HardLinks: %+v, %v", hl, err)
	}
	sess, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if res := call(sess, "view", `{"path":"linked.txt"}`); !strings.Contains(res.TextOf(), "outside content") {
		t.Errorf("view: %s", res.TextOf())
	}
	if res := call(sess, "str_replace", `{"path":"linked.txt","old_str":"outside","new_str":"edited"}`); res.IsError {
		t.Fatalf("edit: %s", res.TextOf())
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside content\n" {
		t.Errorf("an edit in the root changed the file outside: %q", b)
	}
	if b, _ := os.ReadFile(inside); string(b) != "edited content\n" {
		t.Errorf("the file in the root: %q", b)
	}
	if res := call(sess, "create_file", `{"path":"linked.txt","content":"written\n"}`); res.IsError {
		t.Fatalf("write: %s", res.TextOf())
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside content\n" {
		t.Errorf("a write in the root changed the file outside: %q", b)
	}
	if hl, _ := rt.HardLinks(context.Background(), 0); hl.Files != 0 {
		t.Errorf("after the write the link should be broken: %+v", hl)
	}
}
