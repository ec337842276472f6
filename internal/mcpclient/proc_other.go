//go:build !linux

package mcpclient

import (
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dieWithParent does nothing here: a stdio server is stopped when Hands
// closes it (its stdin closed, then a signal).
func dieWithParent(*exec.Cmd) {}

// spawner is needed only where the parent-death signal is per thread.
type spawner struct{}

func newSpawner() *spawner { return &spawner{} }

func (*spawner) stop() {}

func onSpawner(t mcp.Transport, _ *spawner) mcp.Transport { return t }
