package hands_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

func hookSession(t *testing.T, hooks ...hands.HookCommand) (*hands.Session, string) {
	t.Helper()
	sess, root := optionsSession(t, hands.Options{HookCommands: hooks})
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("beta\n"), 0o644)
	return sess, root
}

func call(sess *hands.Session, name, input string) tool.Result {
	return sess.Call(context.Background(), tool.Call{Name: name, Input: json.RawMessage(input)})
}

func TestPreToolUseHookBlocksWithExitTwo(t *testing.T) {
	sess, root := hookSession(t, hands.HookCommand{Event: "PreToolUse", Matcher: "create_file|str_replace",
		Command: `echo "no writes today" >&2; exit 2`})
	res := call(sess, "create_file", `{"path":"new.txt","content":"x"}`)
	if res.Code != hands.PermissionDenied || !strings.Contains(res.TextOf(), "no writes today") {
		t.Errorf("blocked call: %s", res.TextOf())
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Error("a blocked write happened")
	}
	if res := call(sess, "view", `{"path":"a.txt"}`); res.IsError {
		t.Errorf("a tool the matcher does not name was blocked: %s", res.TextOf())
	}
}

func TestPreToolUseHookDecisionsOnStdout(t *testing.T) {
	sess, _ := hookSession(t,
		hands.HookCommand{Event: "PreToolUse", Matcher: "view", Command: `grep -q a.txt && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"b.txt"}}}' || true`},
		hands.HookCommand{Event: "PreToolUse", Matcher: "glob", Command: `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"globs are off"}}'`},
		hands.HookCommand{Event: "PreToolUse", Matcher: "grep", Command: `echo '{"decision":"block","reason":"grep is off"}'`},
	)
	if res := call(sess, "view", `{"path":"a.txt"}`); !strings.Contains(res.TextOf(), "beta") {
		t.Errorf("updatedInput was not applied: %s", res.TextOf())
	}
	if res := call(sess, "glob", `{"pattern":"*"}`); res.Code != hands.PermissionDenied || !strings.Contains(res.TextOf(), "globs are off") {
		t.Errorf("deny: %s", res.TextOf())
	}
	if res := call(sess, "grep", `{"pattern":"x"}`); res.Code != hands.PermissionDenied || !strings.Contains(res.TextOf(), "grep is off") {
		t.Errorf("block: %s", res.TextOf())
	}
}

func TestPostToolUseHookSeesTheCallAndMayAnswer(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen.json")
	sess, root := hookSession(t,
		hands.HookCommand{Event: "PostToolUse", Matcher: "*", Command: `cat > ` + seen},
		hands.HookCommand{Event: "PostToolUse", Matcher: "view", Command: `echo "remember to run the tests" >&2; exit 2`},
		hands.HookCommand{Event: "PostToolUseFailure", Command: `echo "that failed" >&2; exit 2`},
	)
	res := call(sess, "view", `{"path":"a.txt"}`)
	if !strings.Contains(res.TextOf(), "PostToolUse hook feedback:\nremember to run the tests") {
		t.Errorf("feedback missing: %q", res.TextOf())
	}
	var in map[string]any
	b, _ := os.ReadFile(seen)
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("hook input %q: %v", b, err)
	}
	if in["hook_event_name"] != "PostToolUse" || in["tool_name"] != "view" || in["cwd"] != root ||
		in["tool_input"].(map[string]any)["path"] != "a.txt" || in["tool_response"].(map[string]any)["kind"] != "text" ||
		!strings.HasPrefix(in["session_id"].(string), "hands-session-") {
		t.Errorf("hook input %v", in)
	}
	res = call(sess, "view", `{"path":"missing"}`)
	if !res.IsError || !strings.Contains(res.TextOf(), "PostToolUseFailure hook feedback:\nthat failed") {
		t.Errorf("failure feedback: %q", res.TextOf())
	}
}

func TestAFailingOrSlowHookDoesNotBlock(t *testing.T) {
	sess, _ := hookSession(t,
		hands.HookCommand{Event: "PreToolUse", Command: `exit 1`},
		hands.HookCommand{Event: "PreToolUse", Command: `sleep 30`, Timeout: 200 * time.Millisecond},
		hands.HookCommand{Event: "PreToolUse", Command: `echo not json`},
	)
	start := time.Now()
	if res := call(sess, "view", `{"path":"a.txt"}`); res.IsError {
		t.Errorf("a failing hook blocked the call: %s", res.TextOf())
	}
	if time.Since(start) > 10*time.Second {
		t.Error("the slow hook was not stopped at its timeout")
	}
}

// TestATimedOutHookLeavesNoProcessBehind: a hook that starts a child and
// waits for it past its timeout has its whole process group killed, the
// child included.
func TestATimedOutHookLeavesNoProcessBehind(t *testing.T) {
	mk := fmt.Sprintf("%d.%d", 8000+os.Getpid()%1000, time.Now().UnixNano()%100000)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The timeout may fire before the child is forked on a slow machine,
	// which would prove nothing, so it grows until the child has started.
	for timeout := 200 * time.Millisecond; ; timeout *= 2 {
		sess, _ := hookSession(t, hands.HookCommand{Event: "PreToolUse", Timeout: timeout,
			Command: `sleep ` + mk + ` & echo $! > ` + pidFile + `; wait`})
		if res := call(sess, "view", `{"path":"a.txt"}`); res.IsError {
			t.Fatalf("a hook that timed out blocked the call: %s", res.TextOf())
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(sleepsWith(mk)) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("the hook's child still runs: pids %v", sleepsWith(mk))
			}
			time.Sleep(5 * time.Millisecond) // polling for the kernel to finish the kill
		}
		if b, _ := os.ReadFile(pidFile); len(b) > 0 {
			return
		}
		if timeout > 10*time.Second {
			t.Fatal("the hook's child never started")
		}
	}
}

// sleepsWith returns the live `sleep ARG` processes; zombies have an
// empty command line and do not count.
func sleepsWith(arg string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Equal(b, []byte("sleep\x00"+arg+"\x00")) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func TestBadHookCommandsAreRefusedAtStart(t *testing.T) {
	for _, h := range []hands.HookCommand{
		{Event: "BeforeLunch", Command: "true"},
		{Event: "PreToolUse", Matcher: "(", Command: "true"},
		{Event: "PreToolUse", Command: " "},
	} {
		if _, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, HookCommands: []hands.HookCommand{h}}); err == nil {
			t.Errorf("%+v was accepted", h)
		}
	}
}
