package profile_test

import (
	"os"
	"testing"

	"github.com/hands-dev/hands/internal/claudedirs"
)

// TestMain keeps the claude profile's session files (Claude Code's
// locations) out of the user's ~/.claude and /tmp/claude.
func TestMain(m *testing.M) {
	cleanup := claudedirs.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
