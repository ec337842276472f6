package hands_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hands-dev/hands"
)

// TestSessionShowsCwdAndTodos checks what a host reads of a session: the
// working directory a bash `cd` moved, and the task list as the model last
// wrote it.
func TestSessionShowsCwdAndTodos(t *testing.T) {
	sess, root := hookSession(t)
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := sess.Cwd(); got != root {
		t.Errorf("Cwd %q before any call, want the first root %q", got, root)
	}
	if res := call(sess, "bash", `{"command":"cd sub"}`); res.IsError {
		t.Fatal(res.TextOf())
	}
	if got, want := sess.Cwd(), filepath.Join(root, "sub"); got != want {
		t.Errorf("Cwd %q after cd, want %q", got, want)
	}
	if len(sess.Todos()) != 0 {
		t.Errorf("a new session has todos: %v", sess.Todos())
	}
	res := call(sess, "todo_write", `{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},{"content":"Ship","status":"pending"}]}`)
	if res.IsError {
		t.Fatal(res.TextOf())
	}
	want := []hands.Todo{{Content: "Run the tests", Status: "in_progress", ActiveForm: "Running the tests"}, {Content: "Ship", Status: "pending"}}
	if got := sess.Todos(); !slices.Equal(got, want) {
		t.Errorf("Todos %+v, want %+v", got, want)
	}
}

// TestRuntimeLimitsFillDefaults checks the limits a host reads back: the
// defaults where Options leaves a field zero, its own value elsewhere.
func TestRuntimeLimitsFillDefaults(t *testing.T) {
	root := t.TempDir()
	rt, err := hands.New(hands.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if got := rt.Limits(); got != hands.DefaultLimits() {
		t.Errorf("Limits %+v, want the defaults %+v", got, hands.DefaultLimits())
	}
	rt2, err := hands.New(hands.Options{Roots: []string{root}, Limits: hands.Limits{BashTimeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	want := hands.DefaultLimits()
	want.BashTimeout = 30 * time.Second
	if got := rt2.Limits(); got != want {
		t.Errorf("Limits %+v, want %+v", got, want)
	}
}
