package isolate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
)

// A command and environment of any size the kernel accepts run through the
// spawner as they run unconfined (over 1 MiB here: eight variables and the
// command, each near the kernel's bound of 128 KiB for one), though one
// message on the spawner's socket holds 64 KiB; beyond the kernel's bounds
// (a 1 MiB command, a 1 MiB variable, 2.4 MiB in all) the command fails
// saying which bound and what to do, in both, and nothing runs.
func TestSpawnerLargeCommands(t *testing.T) {
	c := configs(t)["landlock"]
	iso := New(c)
	available(t, iso)
	root := c.Roots[0]
	manager := func(t *testing.T, spawner bool, vars int, size int) *jobs.Manager {
		env := os.Environ()
		for n := range vars {
			env = append(env, fmt.Sprintf("BIG%d=%s", n, strings.Repeat("v", size)))
		}
		cfg := jobs.Config{TempDir: c.TempDir, Env: env, Grace: time.Second}
		if spawner {
			cfg.Spawner = iso.NewSpawner()
		}
		m, err := jobs.NewManager(cfg, root, root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}
	const near = 120 << 10
	ran := filepath.Join(root, "ran")
	for _, spawner := range []bool{true, false} {
		t.Run(fmt.Sprintf("spawner=%v", spawner), func(t *testing.T) {
			m := manager(t, spawner, 8, near)
			cmd := "echo ${#BIG0} ${#BIG7} " + strings.Repeat("x", near)[:10] + " # " + strings.Repeat("c", near)
			out, err := m.Run(context.Background(), cmd, 20*time.Second)
			if err != nil {
				t.Fatalf("a command of %d bytes with %d bytes of variables: %v", len(cmd), 8*near, err)
			}
			if want := fmt.Sprintf("%d %d xxxxxxxxxx\n", near, near); out.Merged.Head != want {
				t.Errorf("output %q, want %q", out.Merged.Head, want)
			}
			for what, tc := range map[string]struct {
				m    *jobs.Manager
				cmd  string
				want string
			}{
				"1 MiB command":  {m, "echo ran > " + ran + " # " + strings.Repeat("c", 1<<20), "the command takes 1048"},
				"1 MiB variable": {manager(t, spawner, 1, 1<<20), "echo ran > " + ran, "the environment variable BIG0 takes 1048"},
				"2.4 MiB in all": {manager(t, spawner, 20, near), "echo ran > " + ran, "over the kernel's bound for all of them together (ARG_MAX"},
			} {
				out, err := tc.m.Run(context.Background(), tc.cmd, 20*time.Second)
				if err == nil || out != nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "put the text in a file") {
					t.Errorf("%s: %v, %v; want an error saying %q", what, out, err, tc.want)
				}
				if _, err := os.Stat(ran); err == nil {
					t.Errorf("%s: the command ran", what)
				}
			}
		})
	}
}
