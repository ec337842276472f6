package hands_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/coord"
)

func loopRuntime(t *testing.T, opts hands.Options) (*hands.Runtime, string) {
	t.Helper()
	root := t.TempDir()
	opts.Roots = []string{root}
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt, root
}

func toolNames(rt *hands.Runtime) []string {
	var out []string
	for _, i := range rt.Tools() {
		out = append(out, i.Name)
	}
	return out
}

// TestLoopsQueryAndShare: two loops of one runtime, in-process: a query
// reaches the other loop's host, which answers; shared data arrives; the
// seed's texts come back; complete_task is an event and a state.
func TestLoopsQueryAndShare(t *testing.T) {
	c := coord.NewLocal()
	defer c.Close()
	rt, _ := loopRuntime(t, hands.Options{Profile: "taskdaemon", Coordinator: c, ExecID: "main"})
	a, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	b, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if a.ExecID() != "main" || b.ExecID() != "main-2" {
		t.Fatalf("exec ids %q %q", a.ExecID(), b.ExecID())
	}
	go func() {
		for ev := range b.Coordination() {
			if ev.Message != nil && ev.Message.Kind == coord.KindQuery {
				ev.Message.Reply("port 8080, asked by " + ev.Message.From)
			}
		}
	}()
	res := call(a, "query_loop", `{"target_exec_id":"main-2","question":"which port?"}`)
	if res.IsError || res.TextOf() != "port 8080, asked by main" {
		t.Fatalf("query_loop: %s", res.TextOf())
	}
	res = call(a, "share_data", `{"target_exec_ids":["main-2"],"data_type":"api_schema","data":{"paths":["/a"]}}`)
	if res.IsError || res.TextOf() != "Shared api_schema to 1 loops" {
		t.Fatalf("share_data: %s", res.TextOf())
	}
	res = call(a, "complete_task", `{"summary":"tests pass"}`)
	if res.IsError || res.TextOf() != "Task marked complete: tests pass" {
		t.Fatalf("complete_task: %s", res.TextOf())
	}
	ev := <-a.Coordination()
	if ev.Complete == nil || *ev.Complete != "tests pass" {
		t.Fatalf("completion event %+v", ev)
	}
	if s, done := a.Completed(); !done || s != "tests pass" {
		t.Fatalf("Completed() = %q, %v", s, done)
	}
	for _, c := range []struct{ input, code string }{
		{`{"target_exec_id":"nobody","question":"q"}`, "LOOP_NOT_FOUND"},
		{`{"target_exec_id":"main-2","question":"q","timeout_ms":-1}`, "INVALID_INPUT"},
	} {
		if res := call(a, "query_loop", c.input); !res.IsError || res.Code.String() != c.code {
			t.Errorf("%s: %s %s", c.input, res.Code, res.TextOf())
		}
	}
	b.Close()
	if res := call(a, "query_loop", `{"target_exec_id":"main-2","question":"q"}`); res.Code != hands.LoopEnded {
		t.Errorf("ended loop: %s %s", res.Code, res.TextOf())
	}
}

// TestReplyQuery: the model of the asked loop answers with reply_query.
func TestReplyQuery(t *testing.T) {
	c := coord.NewLocal()
	defer c.Close()
	rt, _ := loopRuntime(t, hands.Options{Coordinator: c, ExecID: "x"})
	a, _ := rt.NewSession()
	b, _ := rt.NewSession()
	done := make(chan string, 1)
	go func() { done <- call(a, "query_loop", `{"target_exec_id":"x-2","question":"ready?"}`).TextOf() }()
	ev := <-b.Coordination()
	if ev.Message == nil || ev.Message.Question != "ready?" {
		t.Fatalf("event %+v", ev)
	}
	if res := call(b, "reply_query", `{"query_id":"`+ev.Message.ID+`","reply":"yes"}`); res.IsError {
		t.Fatal(res.TextOf())
	}
	if got := <-done; got != "yes" {
		t.Fatalf("reply %q", got)
	}
	if res := call(b, "reply_query", `{"query_id":"`+ev.Message.ID+`","reply":"again"}`); !res.IsError {
		t.Error("a query was answered twice")
	}
}

// TestCoordinationListing: taskdaemon lists the seed's ten tools, the
// coordination pair saying no coordinator is configured; other profiles
// list the coordination tools only with a coordinator.
func TestCoordinationListing(t *testing.T) {
	rt, _ := loopRuntime(t, hands.Options{Profile: "taskdaemon"})
	want := []string{"read_file", "write_file", "edit_file", "list_directory", "glob", "grep", "run_command", "query_loop", "share_data", "complete_task"}
	if got := toolNames(rt); !slices.Equal(got, want) {
		t.Errorf("taskdaemon lists %v", got)
	}
	s, _ := rt.NewSession()
	if res := call(s, "query_loop", `{"target_exec_id":"a","question":"q"}`); res.Code != hands.NoCoordinator || !strings.Contains(res.TextOf(), "--coordinator") {
		t.Errorf("without a coordinator: %s", res.TextOf())
	}
	rt, _ = loopRuntime(t, hands.Options{})
	if slices.Contains(toolNames(rt), "query_loop") {
		t.Error("native lists query_loop without a coordinator")
	}
	rt, _ = loopRuntime(t, hands.Options{Coordinator: coord.NewLocal()})
	for _, n := range []string{"query_loop", "share_data", "complete_task", "reply_query"} {
		if !slices.Contains(toolNames(rt), n) {
			t.Errorf("native with a coordinator lacks %s", n)
		}
	}
}

// TestNewIterationNeedsAFreshRead: after NewIteration an edit of a file
// read in the previous iteration is refused until it is read again.
func TestNewIterationNeedsAFreshRead(t *testing.T) {
	rt, root := loopRuntime(t, hands.Options{Profile: "taskdaemon"})
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	s, _ := rt.NewSession()
	call(s, "read_file", `{"path":"a.txt"}`)
	s.NewIteration()
	if res := call(s, "edit_file", `{"path":"a.txt","old_string":"one","new_string":"two"}`); !res.IsError {
		t.Fatal("an edit without a read in this iteration ran")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\n" {
		t.Fatalf("file changed: %q", b)
	}
	call(s, "read_file", `{"path":"a.txt"}`)
	if res := call(s, "edit_file", `{"path":"a.txt","old_string":"one","new_string":"two"}`); res.IsError {
		t.Fatal(res.TextOf())
	}
}

// TestLoopToolSets: a loop type offers only its tools; an unknown tool or
// loop type stops start-up.
func TestLoopToolSets(t *testing.T) {
	loops := map[string]hands.LoopType{
		"phase": {Tools: []string{"read_file", "write_file", "edit_file", "list_directory", "glob", "grep", "run_command", "complete_task"}},
		"plan":  {Tools: []string{"read_file", "write_file", "glob", "grep", "complete_task"}},
	}
	rt, _ := loopRuntime(t, hands.Options{Profile: "taskdaemon", Loops: loops, Loop: "plan"})
	if got := toolNames(rt); !slices.Equal(got, []string{"read_file", "write_file", "glob", "grep", "complete_task"}) {
		t.Errorf("plan loop lists %v", got)
	}
	s, _ := rt.NewSession()
	if res := call(s, "run_command", `{"command":"true"}`); !res.IsError || res.Code != hands.UnknownTool {
		t.Errorf("run_command in a plan loop: %s %s", res.Code, res.TextOf())
	}
	for _, bad := range []hands.Options{
		{Profile: "taskdaemon", Loops: map[string]hands.LoopType{"x": {Tools: []string{"read_file", "bash"}}}},
		{Profile: "taskdaemon", Loops: loops, Loop: "review"},
	} {
		bad.Roots = []string{t.TempDir()}
		if _, err := hands.New(bad); err == nil {
			t.Errorf("started with %+v", bad.Loops)
		} else {
			t.Log(err)
		}
	}
}
