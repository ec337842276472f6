package gcpace

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestStartLeavesGOGC: with GOGC in the environment, Start changes
// nothing (run in a process of its own, since Start acts once).
func TestStartLeavesGOGC(t *testing.T) {
	if os.Getenv("GCPACE_CHILD") == "1" {
		Start()
		for range 20 {
			runtime.GC()
		}
		if g := gogc(); g != 50 {
			t.Fatalf("GOGC=50 in the environment, runtime runs at %d", g)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStartLeavesGOGC$", "-test.v")
	cmd.Env = append(os.Environ(), "GCPACE_CHILD=1", "GOGC=50")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
