package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitFor is a command that writes "started", waits until the file go
// exists, writes "finished" and exits 3: it cannot end before the test
// lets it, whatever its timeout.
func waitFor(goFile string) string {
	return `echo started; while [ ! -e '` + goFile + `' ]; do sleep 0.01; done; echo finished; exit 3`
}

// A command that outlives its timeout under DetachOnTimeout goes on as a
// background job: its output so far is in the result and in its file, it
// runs on (not killed), and the job then reads, finishes and fills its
// file like one Start ran.
func TestDetachOnTimeoutKeepsTheCommandRunning(t *testing.T) {
	outDir := t.TempDir()
	m := newManager(t, Config{OutputDir: outDir})
	goFile := filepath.Join(t.TempDir(), "go")
	out, err := m.RunWith(context.Background(), waitFor(goFile), 100*time.Millisecond, Options{DetachOnTimeout: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.JobID == "" || out.TimedOut || out.Canceled {
		t.Fatalf("not detached: %+v", out)
	}
	if want := filepath.Join(outDir, out.JobID+".output"); out.JobFile != want {
		t.Fatalf("JobFile = %q, want %q", out.JobFile, want)
	}
	if got, _ := m.OutputFile(out.JobID); got != out.JobFile {
		t.Errorf("OutputFile = %q, want %q", got, out.JobFile)
	}
	eventually(t, "the job's file holds its first line", func() bool {
		b, _ := os.ReadFile(out.JobFile)
		return string(b) == "started\n"
	})
	jo, err := m.Output(context.Background(), out.JobID, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if jo.Status != Running {
		t.Fatalf("job status %s, want running", jo.Status)
	}

	if err := os.WriteFile(goFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	jo, err = m.OutputAll(context.Background(), out.JobID, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if jo.Status != Exited || jo.ExitCode != 3 || jo.Output.String() != "started\nfinished\n" {
		t.Fatalf("job ended %s %d with %q; want exited 3 with both lines", jo.Status, jo.ExitCode, jo.Output.String())
	}
	if b, err := os.ReadFile(out.JobFile); err != nil || string(b) != "started\nfinished\n" {
		t.Fatalf("job file holds %q (%v)", b, err)
	}
	if fi, err := os.Stat(out.JobFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("job file mode %v (%v), want 0600", fi.Mode(), err)
	}
}

// Without DetachOnTimeout, and with it when no more jobs may run, the
// command is killed at its timeout as before.
func TestTimeoutKillsWhenNotDetached(t *testing.T) {
	m := newManager(t, Config{MaxRunning: 1, OutputDir: t.TempDir()})
	goFile := filepath.Join(t.TempDir(), "go")
	t.Cleanup(func() { os.WriteFile(goFile, nil, 0o600) })

	out, err := m.RunWith(context.Background(), waitFor(goFile), 100*time.Millisecond, Options{})
	if err != nil || !out.TimedOut || out.JobID != "" {
		t.Fatalf("without detach: %+v, %v; want timed out", out, err)
	}

	if _, err := m.Start(waitFor(goFile), 0); err != nil {
		t.Fatal(err)
	}
	out, err = m.RunWith(context.Background(), waitFor(goFile), 100*time.Millisecond, Options{DetachOnTimeout: true})
	if err != nil || !out.TimedOut || out.JobID != "" {
		t.Fatalf("with the job limit reached: %+v, %v; want timed out, not detached", out, err)
	}
}

// A background job's output file is made new through the directory's
// handle: a link planted at its name is not written through, the job
// takes the next free name instead (the directory may be shared with
// other sessions), and nothing outside changes.
func TestJobOutputFileRefusesAPlantedLink(t *testing.T) {
	outDir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The first job would be job-1: plant a link at its name.
	if err := os.Symlink(victim, filepath.Join(outDir, "job-1.output")); err != nil {
		t.Fatal(err)
	}
	m := newManager(t, Config{OutputDir: outDir})
	id, err := m.Start("echo planted", 0)
	if err != nil {
		t.Fatal(err)
	}
	if id == "job-1" {
		t.Fatalf("first job is %s, whose name a link holds", id)
	}
	if f, err := m.OutputFile(id); err != nil || f != filepath.Join(outDir, id+".output") {
		t.Fatalf("OutputFile = %q, %v", f, err)
	}
	jo, err := m.Output(context.Background(), id, true, 0)
	if err != nil || jo.Output.String() != "planted\n" {
		t.Fatalf("job output %+v, %v", jo, err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Fatalf("the link's target changed: %q", b)
	}

	// The next job gets its file; Close removes it and leaves the link.
	id, err = m.Start("echo second", 0)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := m.OutputFile(id)
	if f != filepath.Join(outDir, id+".output") {
		t.Fatalf("OutputFile = %q", f)
	}
	if _, err := m.Output(context.Background(), id, true, 0); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(f); err != nil || string(b) != "second\n" {
		t.Fatalf("job file %q, %v", b, err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Close left %s: %v", f, err)
	}
	if _, err := os.Lstat(filepath.Join(outDir, "job-1.output")); err != nil {
		t.Errorf("Close removed the planted link, not its own: %v", err)
	}
}

// A job whose output outgrew memory before it went to the background
// still has all of it in its file.
func TestDetachedJobFileHoldsOutputBeforeIt(t *testing.T) {
	outDir := t.TempDir()
	m := newManager(t, Config{OutputDir: outDir, OutputLimit: 100})
	goFile := filepath.Join(t.TempDir(), "go")
	out, err := m.RunWith(context.Background(), "seq 1 5000; "+waitFor(goFile), 100*time.Millisecond, Options{DetachOnTimeout: true})
	if err != nil || out.JobID == "" {
		t.Fatalf("not detached: %+v, %v", out, err)
	}
	if err := os.WriteFile(goFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Output(context.Background(), out.JobID, true, 0); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= 5000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	want.WriteString("started\nfinished\n")
	if b, err := os.ReadFile(out.JobFile); err != nil || string(b) != want.String() {
		t.Fatalf("job file holds %d bytes (%v), want %d", len(b), err, want.Len())
	}
}

// With NameByPath the shell's own messages name it by its path, as Claude
// Code's do; otherwise by its name.
func TestNameByPath(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	for _, c := range []struct {
		byPath bool
		want   string
	}{
		{false, "bash: line 1: definitely_not_a_command_xyz: command not found\n"},
		{true, "/bin/bash: line 1: definitely_not_a_command_xyz: command not found\n"},
	} {
		m := newManager(t, Config{Shell: "/bin/bash", NameByPath: c.byPath})
		out := run(t, m, "definitely_not_a_command_xyz")
		if out.ExitCode != 127 || out.Merged.String() != c.want {
			t.Errorf("NameByPath=%v: exit %d, %q; want 127, %q", c.byPath, out.ExitCode, out.Merged.String(), c.want)
		}
	}
}

// With TrimSpill, a foreground command's whole output in its spill file
// loses its leading blank lines and trailing white space, as Claude Code
// saves a large Bash result; the file lives in Config.Spill.
func TestTrimSpillDropsBlankEnds(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() }) // after the Manager's Close
	m := newManager(t, Config{Spill: rootFiles{r}, TrimSpill: true, OutputLimit: 100})
	out, err := m.Run(context.Background(), "echo; echo '  '; seq 1 3000; echo; printf ' \\t\\n\\n'", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Merged.Truncated() || filepath.Dir(out.Merged.Path) != dir {
		t.Fatalf("output %+v not spilled into %s", out.Merged, dir)
	}
	b, err := os.ReadFile(out.Merged.Path)
	var want strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&want, "%d\n", i)
	}
	if err != nil || string(b) != strings.TrimSuffix(want.String(), "\n") {
		t.Fatalf("spill file holds %d bytes starting %.20q and ending %q (%v)", len(b), b, b[max(len(b)-20, 0):], err)
	}
}
