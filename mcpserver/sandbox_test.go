package mcpserver_test

import (
	"os"
	"testing"

	"github.com/hands-dev/hands"
)

// TestMain lets the test binary serve as the sandbox helper, so that the
// servers under test isolate their commands as hands serve does.
func TestMain(m *testing.M) {
	hands.SandboxInit()
	os.Exit(m.Run())
}
