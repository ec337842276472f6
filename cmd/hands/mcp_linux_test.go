package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStdioServersDieWithHands: a stdio server behind `hands serve` ends
// when Hands is killed (SIGKILL: no chance to close it), even after
// confined shell commands ran on threads Go then ended (the parent-death
// signal is per thread), and it answers calls after them.
func TestStdioServersDieWithHands(t *testing.T) {
	root := workspace(t)
	f := writeFile(t, filepath.Join(t.TempDir(), "mcp.json"), `{"mcpServers": {"fake": {"command": "`+fakeServer(t)+`"}}}`)
	s := startStdio(t, "--root", root, "--strict-mcp-config", "--mcp-config", f)
	s.initialize()
	for i := range 8 {
		if r := s.call(2+i, "tools/call", `{"name":"bash","arguments":{"command":"true"}}`); r.Error != nil {
			t.Fatalf("bash: %s", r.Error.Message)
		}
	}
	r := s.call(20, "tools/call", `{"name":"mcp__fake__pid","arguments":{}}`)
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("pid: %+v %s", r.Error, r.Result)
	}
	pid, err := strconv.Atoi(res.Content[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("the server %d is gone before Hands was killed: %v", pid, err)
	}
	defer unix.Close(fd)
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// A pidfd becomes readable when its process ends; the timeout only
	// bounds a failure.
	n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 20000)
	for err == unix.EINTR { // the Go runtime's signals interrupt the wait
		n, err = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 20000)
	}
	if err != nil || n != 1 {
		t.Errorf("the MCP server %d outlived Hands (poll: %d, %v)", pid, n, err)
	}
}
