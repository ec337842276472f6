package mcpserver_test

import (
	"os"
	"testing"

	"github.com/hands-dev/hands/internal/claudedirs"
)

func TestMain(m *testing.M) {
	cleanup := claudedirs.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
