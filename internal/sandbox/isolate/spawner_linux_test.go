package isolate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/sandbox/confine"
)

// session returns a jobs.Manager whose commands run through a spawner of
// iso, closed with the test.
func session(t *testing.T, iso *Isolator, root, tmp string) (*jobs.Manager, *Spawner) {
	t.Helper()
	available(t, iso)
	sp := iso.NewSpawner()
	m, err := jobs.NewManager(jobs.Config{Spawner: sp, TempDir: tmp, Grace: time.Second}, root, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, sp
}

func TestSpawnerSmoke(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Landlock: &confine.Policy{Roots: []string{root}, TempDir: tmp, Scoped: true}, Grace: time.Second})
	m, _ := session(t, iso, root, tmp)
	for _, c := range []string{"echo hi; echo $$; cat /proc/$$/stat | cut -d' ' -f5; ls /proc | grep -c '^[0-9]'", "exit 3", "kill -TERM $$", "cd /tmp; pwd", "pwd", "unshare -U true; echo $?", "kill -TERM 1; kill -SEGV 1; kill -KILL 1; echo still", "cat /proc/1/environ; echo $?", "grep Cap /proc/self/status"} {
		out, err := m.Run(context.Background(), c, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q -> %q code %d sig %s pgid %d cwd %s", c, strings.TrimSpace(out.Merged.Head), out.ExitCode, out.Signal, out.PGID, out.Cwd)
	}
}
