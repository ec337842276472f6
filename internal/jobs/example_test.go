package jobs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/sandbox/confine"
)

func ExampleManager_Run() {
	root, _ := os.MkdirTemp("", "example-")
	defer os.RemoveAll(root)
	os.Mkdir(filepath.Join(root, "sub"), 0o755)

	m, err := jobs.NewManager(jobs.Config{}, root, root)
	if err != nil {
		panic(err)
	}
	defer m.Close()

	out, _ := m.Run(context.Background(), "cd sub # moves the session\necho hi; exit 3", 0)
	fmt.Printf("%q exit %d\n", out.Merged.String(), out.ExitCode)
	out, _ = m.Run(context.Background(), "basename $(pwd)", 0)
	fmt.Printf("%q\n", out.Stdout.String())
	// Output:
	// "hi\n" exit 3
	// "sub\n"
}

// A session whose commands run under Landlock (where the kernel has it):
// writable only in the root and the session's temporary directory.
func ExampleConfig_confine() {
	root, _ := os.MkdirTemp("", "example-")
	defer os.RemoveAll(root)
	tmp := filepath.Join(root, ".session-tmp")
	os.Mkdir(tmp, 0o700)
	c := confine.New(confine.Policy{
		Roots:    []string{root},
		TempDir:  tmp,
		DenyRead: confine.SecretPaths(os.Getenv("HOME")),
	})
	_ = c.Report() // what is enforced, for hands doctor
	m, err := jobs.NewManager(jobs.Config{TempDir: tmp, Confine: c.RestrictThread}, root, root)
	if err != nil {
		panic(err)
	}
	defer m.Close()
	id, _ := m.Start("echo built > out.txt && cat out.txt", time.Minute)
	res, _ := m.Output(context.Background(), id, true, time.Minute)
	fmt.Println(res.Status, strings.TrimSpace(res.Output.String()))
	// Output:
	// exited built
}
