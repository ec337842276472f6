package hands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/claudedirs"
)

var savedTo = regexp.MustCompile(`Full output saved to: (\S+)\n`)

// The claude profile's large results (Claude Code's <persisted-output>)
// and background tasks name files that hold the whole: the saved Grep
// result is all of it, the task's file all the task wrote. They are where
// Claude Code keeps them ($CLAUDE_CONFIG_DIR/projects/SLUG/SESSION/
// tool-results, $CLAUDE_CODE_TMPDIR/claude/SLUG/tasks; TestMain points
// both at a temporary directory), and Close removes them and the
// session's own directory.
func TestClaudeSavedFilesHoldTheWhole(t *testing.T) {
	sess, root := optionsSession(t, hands.Options{Profile: "claude"})
	slug := claudedirs.Slug(root)
	results := filepath.Join(os.Getenv("CLAUDE_CONFIG_DIR"), "projects", slug)
	tasks := filepath.Join(os.Getenv("CLAUDE_CODE_TMPDIR"), "claude", slug, "tasks")
	var lines, want strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
		fmt.Fprintf(&want, "%d:line %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(sess, "Grep", `{"pattern":"line","path":"`+filepath.Join(root, "big.txt")+`","output_mode":"content"}`)
	m := savedTo.FindStringSubmatch(res.TextOf())
	if res.IsError || m == nil {
		t.Fatalf("no persisted output:\n%.300s", res.TextOf())
	}
	sessionDir := filepath.Dir(filepath.Dir(m[1]))
	if filepath.Dir(sessionDir) != results || filepath.Base(filepath.Dir(m[1])) != "tool-results" {
		t.Errorf("saved to %s, not in %s/SESSION/tool-results", m[1], results)
	}
	if b, err := os.ReadFile(m[1]); err != nil || string(b) != strings.TrimSuffix(want.String(), "\n") {
		t.Fatalf("saved file holds %d bytes (%v), want all %d lines", len(b), err, 2500)
	}

	res = call(sess, "Bash", `{"command":"seq 1 3; echo done","run_in_background":true}`)
	file, ok := strings.CutPrefix(res.TextOf(), "Command running in background with ID: job-1. Output is being written to: ")
	if !ok || filepath.Dir(file) != tasks {
		t.Fatalf("start message: %s", res.TextOf())
	}
	if res := call(sess, "TaskOutput", `{"task_id":"job-1"}`); !strings.Contains(res.TextOf(), "<status>completed</status>") {
		t.Fatalf("task did not complete: %s", res.TextOf())
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "1\n2\n3\ndone\n" {
		t.Fatalf("task file holds %q (%v)", b, err)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{m[1], file, sessionDir} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s outlived the session: %v", f, err)
		}
	}
}
