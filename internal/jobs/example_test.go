package jobs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// A session whose commands run under Landlock: writable only in the root
// and the session's temporary directory.
func ExampleConfig_confine() {
	root, tmp := "/work/project", "/tmp/hands-session-1"
	os.MkdirAll(tmp, 0o700)
	c := confine.New(confine.Policy{
		Roots:    []string{root},
		TempDir:  tmp,
		DenyRead: confine.SecretPaths(os.Getenv("HOME")),
	})
	fmt.Print(c.Report()) // for hands doctor
	m, err := jobs.NewManager(jobs.Config{TempDir: tmp, Confine: c.RestrictThread}, root, root)
	if err != nil {
		panic(err)
	}
	defer m.Close()
	id, _ := m.Start("go test ./...", 10*time.Minute)
	res, _ := m.Output(context.Background(), id, true, time.Minute)
	fmt.Println(res.Status, res.Output)
}
