//go:build linux

package hands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

// raceLoops is how many calls a race test makes: a short run by default,
// HANDS_RACE_LOOPS=3000 for the full count.
func raceLoops(t *testing.T, short int) int { return envCount(t, "HANDS_RACE_LOOPS", short) }

// envCount is the number in the environment variable name, or short.
func envCount(t *testing.T, name string, short int) int {
	s := os.Getenv(name)
	if s == "" {
		return short
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

func escapeSession(t *testing.T, deny ...string) (*hands.Session, string, string) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("NEEDLE outside\n"), 0o644)
	os.Mkdir(filepath.Join(outside, "deeper"), 0o755)
	os.WriteFile(filepath.Join(outside, "deeper", "secret2.txt"), []byte("NEEDLE outside\n"), 0o644)
	sess, _ := sessionIn(t, root, hands.Options{Deny: deny})
	return sess, root, outside
}

// A directory link inside the root that points outside (to /, /etc, the
// home directory) is not descended by glob or grep, whatever the pattern.
func TestGlobGrepDoNotFollowDirLinksOut(t *testing.T) {
	sess, root, outside := escapeSession(t)
	os.WriteFile(filepath.Join(root, "in.txt"), []byte("NEEDLE inside\n"), 0o644)
	for _, l := range []struct{ name, to string }{{"out", outside}, {"etc", "/etc"}, {"slash", "/"}, {"home", os.Getenv("HOME")}} {
		if l.to != "" {
			os.Symlink(l.to, filepath.Join(root, l.name))
		}
	}
	calls := []struct{ tool, input string }{
		{"glob", `{"pattern":"**"}`},
		{"glob", `{"pattern":"**/*.txt"}`},
		{"glob", `{"pattern":"out/**"}`},
		{"glob", `{"pattern":"out/*"}`},
		{"glob", `{"pattern":"out/deeper/*.txt"}`},
		{"glob", `{"pattern":"etc/*"}`},
		{"glob", `{"pattern":"slash/etc/*"}`},
		{"glob", `{"pattern":"home/*"}`},
		{"grep", `{"pattern":"NEEDLE","output_mode":"content"}`},
		{"grep", `{"pattern":"NEEDLE","glob":"out/**","output_mode":"content"}`},
		{"grep", `{"pattern":"root","output_mode":"files_with_matches"}`},
	}
	for _, c := range calls {
		res := call(sess, c.tool, c.input)
		text := res.TextOf()
		if strings.Contains(text, "outside") || strings.Contains(text, "secret") || strings.Contains(text, "passwd") || strings.Contains(text, "root:") {
			t.Errorf("%s %s reached outside the root:\n%s", c.tool, c.input, text)
		}
	}
	if text := call(sess, "grep", `{"pattern":"NEEDLE","output_mode":"content"}`).TextOf(); !strings.Contains(text, "inside") {
		t.Errorf("grep lost the file inside: %s", text)
	}
}

// swapper exchanges two names atomically (renameat2 RENAME_EXCHANGE) until
// stopped: a directory or file, and a symbolic link pointing elsewhere.
func swapper(t *testing.T, a, b string) (stop func()) {
	t.Helper()
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("exchange: %v", err)
				return
			}
		}
	})
	return func() { done.Store(true); wg.Wait() }
}

// swapAll starts n swappers in root, of the names a and b formatted with
// 0..n-1, and returns what stops them all.
func swapAll(t *testing.T, root, a, b string, n int) (stop func()) {
	var stops []func()
	for i := range n {
		stops = append(stops, swapper(t, filepath.Join(root, fmt.Sprintf(a, i)), filepath.Join(root, fmt.Sprintf(b, i))))
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// A directory swapped for a link to outside while grep and glob walk it
// is never followed (it used to be in about 6% of 3,000 calls).
func TestDirSwappedForLinkDuringWalk(t *testing.T) {
	sess, root, outside := escapeSession(t)
	for i := range 20 {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i))
		os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
		os.WriteFile(filepath.Join(dir, "sub", "x.txt"), []byte("NEEDLE inside\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "y.txt"), []byte("NEEDLE inside\n"), 0o644)
		os.Symlink(outside, filepath.Join(root, fmt.Sprintf(".link%02d", i)))
	}
	defer swapAll(t, root, "d%02d", ".link%02d", 20)()
	n := raceLoops(t, 60)
	reached := 0
	for i := range n {
		input := `{"pattern":"NEEDLE","output_mode":"content"}`
		name := "grep"
		if i%2 == 1 {
			name, input = "glob", `{"pattern":"**/*.txt"}`
		}
		text := call(sess, name, input).TextOf()
		if strings.Contains(text, "outside") || strings.Contains(text, "secret") {
			reached++
			if reached == 1 {
				t.Errorf("%s reached outside:\n%s", name, text)
			}
		}
	}
	if reached > 0 {
		t.Errorf("%d of %d calls reached outside content", reached, n)
	}
	t.Logf("%d calls during the swaps, none reached outside", n)
}

// A file swapped for a link to a denied file while grep runs is not read:
// what is opened is the name that was checked.
func TestFileSwappedForDeniedDuringGrep(t *testing.T) {
	sess, root, _ := escapeSession(t, ".env")
	os.WriteFile(filepath.Join(root, ".env"), []byte("NEEDLE secret\n"), 0o600)
	for i := range 20 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("a%02d.txt", i)), []byte("NEEDLE plain\n"), 0o644)
		os.Symlink(".env", filepath.Join(root, fmt.Sprintf("l%02d", i)))
	}
	defer swapAll(t, root, "a%02d.txt", "l%02d", 20)()
	n := raceLoops(t, 60)
	for range n {
		text := call(sess, "grep", `{"pattern":"NEEDLE","output_mode":"content"}`).TextOf()
		if strings.Contains(text, "secret") {
			t.Fatalf("grep read the denied file through a swapped name:\n%s", text)
		}
	}
}

// Ignore files sit in trees commands write: a FIFO or a link to /dev/zero
// planted as one neither hangs a search nor floods the server's memory.
func TestPlantedIgnoreFilesAreHarmless(t *testing.T) {
	sess, root, _ := escapeSession(t)
	sub := filepath.Join(root, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "f.txt"), []byte("NEEDLE inside\n"), 0o644)
	if err := unix.Mkfifo(filepath.Join(root, ".gitignore"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/zero", filepath.Join(sub, ".ignore"))
	os.Symlink("/dev/zero", filepath.Join(sub, ".rgignore"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range []struct{ tool, input string }{{"grep", `{"pattern":"NEEDLE"}`}, {"glob", `{"pattern":"**/*.txt"}`}} {
		res := sess.Call(ctx, tool.Call{Name: c.tool, Input: json.RawMessage(c.input)})
		if !strings.Contains(res.TextOf(), "f.txt") {
			t.Errorf("%s: %s", c.tool, res.TextOf())
		}
	}
}

// The same swap under the file tools: view never shows the denied file.
func TestFileSwappedForDeniedDuringView(t *testing.T) {
	sess, root, _ := escapeSession(t, ".env")
	os.WriteFile(filepath.Join(root, ".env"), []byte("NEEDLE secret\n"), 0o600)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("NEEDLE plain\n"), 0o644)
	os.Symlink(".env", filepath.Join(root, "l"))
	stop := swapper(t, filepath.Join(root, "a.txt"), filepath.Join(root, "l"))
	defer stop()
	n := raceLoops(t, 300)
	for range n {
		text := call(sess, "view", `{"path":"a.txt"}`).TextOf()
		if strings.Contains(text, "secret") {
			t.Fatalf("view read the denied file through a swapped name:\n%s", text)
		}
	}
}
