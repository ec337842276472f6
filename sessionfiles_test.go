package hands_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/claudedirs"
)

// claudeFiles is a claude-profile session whose files go under config and
// temp (Options.ClaudeConfigDir, ClaudeTempDir), with a big file to grep
// and the log it writes.
type claudeFiles struct {
	rt                 *hands.Runtime
	sess               *hands.Session
	root, config, temp string
	slug               string
	log                *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newClaudeFiles(t *testing.T, opts hands.Options) *claudeFiles {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &claudeFiles{root: filepath.Join(base, "project"), config: filepath.Join(base, "home", ".claude"), temp: filepath.Join(base, "tmp"), log: &syncBuffer{}}
	for _, d := range []string{c.root, filepath.Dir(c.config), c.temp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	var lines strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(c.root, "big.txt"), []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c.slug = claudedirs.Slug(c.root)
	opts.Profile, opts.Roots = "claude", []string{c.root}
	opts.ClaudeConfigDir, opts.ClaudeTempDir = c.config, c.temp
	opts.Logger = slog.New(slog.NewTextHandler(c.log, nil))
	if c.rt, err = hands.New(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.rt.Close() })
	if c.sess, err = c.rt.NewSession(); err != nil {
		t.Fatal(err)
	}
	return c
}

// persist makes the session save a result and start a background job, and
// returns the two files' paths, the job's once it finished.
func (c *claudeFiles) persist(t *testing.T) (saved, task string) {
	t.Helper()
	res := call(c.sess, "Grep", `{"pattern":"line","path":"`+filepath.Join(c.root, "big.txt")+`","output_mode":"content"}`)
	m := savedTo.FindStringSubmatch(res.TextOf())
	if res.IsError || m == nil {
		t.Fatalf("no persisted output:\n%.300s", res.TextOf())
	}
	res = call(c.sess, "Bash", `{"command":"echo task-a; echo task-b","run_in_background":true}`)
	text := res.TextOf()
	i := strings.Index(text, "Output is being written to: ")
	if res.IsError || i < 0 {
		t.Fatalf("background start: %s", text)
	}
	task = text[i+len("Output is being written to: "):]
	id := filepath.Base(strings.TrimSuffix(task, ".output"))
	if res := call(c.sess, "TaskOutput", `{"task_id":"`+id+`"}`); !strings.Contains(res.TextOf(), "<status>completed</status>") {
		t.Fatalf("task did not complete: %s", res.TextOf())
	}
	return m[1], task
}

// snapshot lists every entry under dir with its mode and content.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", p, err)
			return nil
		}
		fi, _ := d.Info()
		fmt.Fprintf(&b, "%s %v", p, fi.Mode())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}

// Where nothing is in the way, the claude profile keeps its files where
// Claude Code does, in directories it makes private (0700), and Close
// removes the files and the session's own directory.
func TestClaudeFilesWhereClaudeCodeKeepsThem(t *testing.T) {
	c := newClaudeFiles(t, hands.Options{})
	saved, task := c.persist(t)
	if dir := filepath.Join(c.config, "projects", c.slug); filepath.Dir(filepath.Dir(filepath.Dir(saved))) != dir || filepath.Base(filepath.Dir(saved)) != "tool-results" {
		t.Errorf("result saved to %s, not %s/SESSION/tool-results", saved, dir)
	}
	if want := filepath.Join(c.temp, "claude", c.slug, "tasks"); filepath.Dir(task) != want {
		t.Errorf("task output in %s, not %s", task, want)
	}
	for _, d := range []string{c.config, filepath.Join(c.config, "projects"), filepath.Dir(filepath.Dir(saved)), filepath.Dir(saved), filepath.Join(c.temp, "claude"), filepath.Dir(task)} {
		if fi, err := os.Lstat(d); err != nil || fi.Mode().Perm() != 0o700 || !fi.IsDir() {
			t.Errorf("%s: %v, %v; want a directory of mode 0700", d, fi.Mode(), err)
		}
	}
	if c.log.String() != "" {
		t.Errorf("log: %s", c.log.String())
	}
	if err := c.sess.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{saved, task, filepath.Dir(saved), filepath.Dir(filepath.Dir(saved))} {
		if _, err := os.Lstat(f); !os.IsNotExist(err) {
			t.Errorf("%s outlived the session: %v", f, err)
		}
	}
}

// A directory on the way to the files that is a symbolic link (planted by
// a command run without a sandbox, or by someone else) is refused at every
// level: nothing is written through it, the session keeps its files in
// its private directory, and the log says so once.
func TestClaudeFilesRefuseAPlantedLinkAtEachLevel(t *testing.T) {
	levels := []struct {
		name string
		at   func(c *claudeFiles) string
	}{
		{"config", func(c *claudeFiles) string { return c.config }},
		{"projects", func(c *claudeFiles) string { return filepath.Join(c.config, "projects") }},
		{"project", func(c *claudeFiles) string { return filepath.Join(c.config, "projects", c.slug) }},
		{"claude", func(c *claudeFiles) string { return filepath.Join(c.temp, "claude") }},
		{"tmp project", func(c *claudeFiles) string { return filepath.Join(c.temp, "claude", c.slug) }},
		{"tasks", func(c *claudeFiles) string { return filepath.Join(c.temp, "claude", c.slug, "tasks") }},
	}
	for _, l := range levels {
		t.Run(l.name, func(t *testing.T) {
			c := newClaudeFiles(t, hands.Options{})
			victim := t.TempDir()
			if err := os.WriteFile(filepath.Join(victim, "keep"), []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			link := l.at(c)
			if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(victim, link); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, victim)
			saved, task := c.persist(t)
			// A second session falls back too, without a second warning.
			sess2, err := c.rt.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			c2 := *c
			c2.sess = sess2
			saved2, task2 := c2.persist(t)
			if after := snapshot(t, victim); after != before {
				t.Fatalf("the link's target changed:\n%s\nwas:\n%s", after, before)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the planted link changed: %v, %v", fi, err)
			}
			private := filepath.Dir(c.sess.TempDir())
			isResults := strings.HasPrefix(l.name, "config") || strings.HasPrefix(l.name, "project")
			for _, f := range []string{saved, task} {
				inPrivate := strings.HasPrefix(f, private+string(filepath.Separator))
				wantPrivate := isResults == (f == saved)
				if inPrivate != wantPrivate {
					t.Errorf("%s: in the private directory %v, want %v", f, inPrivate, wantPrivate)
				}
			}
			for _, f := range []string{saved, task, saved2, task2} {
				if strings.HasPrefix(f, victim) {
					t.Errorf("%s is in the link's target", f)
				}
			}
			if n := strings.Count(c.log.String(), "keeping results and background output in the session's private directory"); n != 1 {
				t.Errorf("the log said it %d times, want once:\n%s", n, c.log.String())
			}
			if !strings.Contains(c.log.String(), "symbolic link") {
				t.Errorf("the log does not say why:\n%s", c.log.String())
			}
		})
	}
}

// A directory on the way that others may write, or that another user
// owns, is refused the same way.
func TestClaudeFilesRefuseASharedOrForeignDirectory(t *testing.T) {
	cases := []struct {
		name string
		set  func(t *testing.T, dir string)
		why  string
	}{
		{"group and world writable", func(t *testing.T, dir string) {
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
		}, "writable by its group or others"},
		{"another user's", func(t *testing.T, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("giving a directory to another user needs root")
			}
			if err := os.Chown(dir, 12345, 12345); err != nil {
				t.Fatal(err)
			}
		}, "owned by user 12345"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClaudeFiles(t, hands.Options{})
			projects := filepath.Join(c.config, "projects")
			claude := filepath.Join(c.temp, "claude")
			for _, d := range []string{projects, claude} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					t.Fatal(err)
				}
				tc.set(t, d)
			}
			before := snapshot(t, filepath.Dir(c.config)) + snapshot(t, c.temp)
			saved, task := c.persist(t)
			private := filepath.Dir(c.sess.TempDir())
			for _, f := range []string{saved, task} {
				if !strings.HasPrefix(f, private+string(filepath.Separator)) {
					t.Errorf("%s is not in the private directory %s", f, private)
				}
			}
			if after := snapshot(t, filepath.Dir(c.config)) + snapshot(t, c.temp); after != before {
				t.Errorf("the refused directories changed:\n%s\nwas:\n%s", after, before)
			}
			if !strings.Contains(c.log.String(), tc.why) {
				t.Errorf("the log does not say %q:\n%s", tc.why, c.log.String())
			}
		})
	}
}

// The files a session's results name can be read back with Read and Grep,
// though they are outside the roots; nothing else there can, not another
// session's files and not a file planted beside them, and no tool may
// change them.
func TestClaudeFilesReadableByTheirSessionOnly(t *testing.T) {
	c := newClaudeFiles(t, hands.Options{})
	saved, task := c.persist(t)
	if res := call(c.sess, "Read", `{"file_path":"`+saved+`","offset":2,"limit":2}`); res.IsError || res.TextOf() != "     2→2:line 2\n     3→3:line 3" {
		t.Errorf("Read of the saved result: %q", res.TextOf())
	}
	if res := call(c.sess, "Read", `{"file_path":"`+task+`"}`); res.IsError || res.TextOf() != "     1→task-a\n     2→task-b\n     3→" {
		t.Errorf("Read of the task's output: %q", res.TextOf())
	}
	if res := call(c.sess, "Grep", `{"pattern":"^2500:","path":"`+saved+`","output_mode":"content"}`); res.IsError || res.TextOf() != "2500:2500:line 2500" {
		t.Errorf("Grep of the saved result: %q", res.TextOf())
	}
	if res := call(c.sess, "Grep", `{"pattern":"task-b","path":"`+task+`","output_mode":"content"}`); res.IsError || res.TextOf() != "2:task-b" {
		t.Errorf("Grep of the task's output: %q", res.TextOf())
	}

	// The results directory is the session's alone: Glob and Grep search
	// it, seeing only the session's files.
	planted := filepath.Join(filepath.Dir(saved), "planted.txt")
	if err := os.WriteFile(planted, []byte("planted line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := call(c.sess, "Glob", `{"pattern":"*.txt","path":"`+filepath.Dir(saved)+`"}`); res.IsError || res.TextOf() != saved {
		t.Errorf("Glob of the results directory: %q; want only %s", res.TextOf(), saved)
	}
	if res := call(c.sess, "Grep", `{"pattern":"planted","path":"`+filepath.Dir(saved)+`"}`); res.IsError || res.TextOf() != "No files found" {
		t.Errorf("Grep of the results directory: %q", res.TextOf())
	}

	// Another session's files, and a file planted beside this session's.
	other, err := c.rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	c2 := *c
	c2.sess = other
	otherSaved, otherTask := c2.persist(t)
	plantedTask := filepath.Join(filepath.Dir(task), "job-999.output")
	if err := os.WriteFile(plantedTask, []byte("planted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{otherSaved, otherTask, planted, plantedTask, filepath.Dir(otherSaved), filepath.Dir(task)} {
		for _, in := range []struct{ tool, input string }{
			{"Read", `{"file_path":"` + p + `"}`},
			{"Grep", `{"pattern":"a","path":"` + p + `"}`},
		} {
			if res := call(c.sess, in.tool, in.input); !res.IsError || res.Code != hands.AccessDenied {
				t.Errorf("%s of %s: %s %q; want access denied", in.tool, p, res.Code, res.TextOf())
			}
		}
	}

	// No tool changes the session's own files.
	before := snapshot(t, filepath.Dir(saved)) + snapshot(t, filepath.Dir(task))
	for _, in := range []struct{ tool, input string }{
		{"Write", `{"file_path":"` + saved + `","content":"changed"}`},
		{"Edit", `{"file_path":"` + saved + `","old_string":"line 1\n","new_string":"changed\n"}`},
		{"Write", `{"file_path":"` + task + `","content":"changed"}`},
		{"Edit", `{"file_path":"` + task + `","old_string":"task-a","new_string":"changed"}`},
	} {
		if res := call(c.sess, in.tool, in.input); !res.IsError {
			t.Errorf("%s %s: %q; want an error", in.tool, in.input, res.TextOf())
		}
	}
	if after := snapshot(t, filepath.Dir(saved)) + snapshot(t, filepath.Dir(task)); after != before {
		t.Errorf("the saved files changed:\n%s\nwas:\n%s", after, before)
	}
}
